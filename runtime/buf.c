/* buf.c - placeholder, being written */
