/* pln_file.h — opening the files hrpplan reads.
 *
 * Every input goes through pln_file_open_input: it must be a regular file (a symbolic
 * link counts as what it points to), so that a directory, a FIFO (which would block the
 * read forever), a device such as /dev/zero (endless) or a socket is refused at once
 * with its kind named; and it must be at most `max_bytes` long, checked before a byte is
 * read, so that a huge file is refused instead of filling the memory. The open never
 * blocks. The caps per kind of file are in base/pln_tolerance.h (PLN_MAX_*_BYTES). */
#ifndef PLN_FILE_H
#define PLN_FILE_H

#include <stdio.h>

#include "base/pln_status.h"

/* Opens `path` for reading ("rb"); `what` names the file's role in messages ("robot
 * file"). On failure *out is NULL and err reads "<path>: <reason>". */
PlnStatus pln_file_open_input(const char *path, const char *what, long long max_bytes,
                              FILE **out, char *err, size_t err_size);

/* Reads a whole input file (checked as above) into a NUL-terminated buffer that the
 * caller frees; *size receives its length without the NUL. */
PlnStatus pln_file_read_input(const char *path, const char *what, long long max_bytes,
                              char **data, size_t *size, char *err, size_t err_size);

/* The path of `target` relative to the directory `from_dir` (both resolved with realpath,
 * so both must exist), e.g. "../../robots/hrp2.yaml". 0 when either cannot be resolved
 * or the result does not fit. */
int pln_file_relative_path(const char *from_dir, const char *target, char *out, size_t size);

#endif /* PLN_FILE_H */
