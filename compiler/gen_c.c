/* gen_c.c - placeholder, being written */
