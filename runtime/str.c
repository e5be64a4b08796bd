/* str.c - placeholder, being written */
