/* num_write.c - placeholder, being written */
