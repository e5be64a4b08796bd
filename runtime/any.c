/* any.c - placeholder, being written */
