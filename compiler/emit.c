/* emit.c - placeholder, being written */
