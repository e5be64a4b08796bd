/* depfile.c - placeholder, being written */
