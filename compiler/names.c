/* names.c - placeholder, being written */
