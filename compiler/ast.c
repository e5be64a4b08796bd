/* ast.c - placeholder, being written */
