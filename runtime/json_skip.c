/* json_skip.c - placeholder, being written */
