/* base64.c - placeholder, being written */
