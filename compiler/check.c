/* check.c - placeholder, being written */
