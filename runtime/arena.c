/* arena.c - placeholder, being written */
