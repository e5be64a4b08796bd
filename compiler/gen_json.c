/* gen_json.c - placeholder, being written */
