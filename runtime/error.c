/* error.c - placeholder, being written */
