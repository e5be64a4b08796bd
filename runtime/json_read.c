/* json_read.c - placeholder, being written */
