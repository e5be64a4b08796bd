/* gen_types.c - placeholder, being written */
