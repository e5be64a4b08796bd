/* time.c - placeholder, being written */
