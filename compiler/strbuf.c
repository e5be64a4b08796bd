/* strbuf.c - placeholder, being written */
