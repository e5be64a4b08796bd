/* num_read.c - placeholder, being written */
