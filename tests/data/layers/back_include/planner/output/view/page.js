// not a C file: never read
