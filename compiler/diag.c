/* diag.c - placeholder, being written */
