/* load.c - placeholder, being written */
