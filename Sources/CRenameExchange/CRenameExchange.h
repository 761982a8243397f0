// Two paths' files swapped in one step, which Swift's Glibc module does not declare
// (`renameat2` needs _GNU_SOURCE) and Darwin names otherwise (`renamex_np`).
//
// Header only, as CAtomicCell is: the function is compiled into the Swift code that calls it.
#ifndef CREASE_RENAME_EXCHANGE_H
#define CREASE_RENAME_EXCHANGE_H

#include <errno.h>
#include <stdio.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Swaps the files at `first` and `second`, both of which must exist, atomically: at every
/// instant each path names one of the two. Returns 0, or -1 with errno set (ENOENT when
/// either is missing; EINVAL, ENOTSUP or ENOSYS where the file system or the system cannot).
static inline int crease_rename_exchange(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
  // RENAME_EXCHANGE of <linux/fs.h>, whose other declarations clash with the C library's.
  return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 1 << 1);
#elif defined(__APPLE__) && defined(RENAME_SWAP)
  return renamex_np(first, second, RENAME_SWAP);
#else
  errno = ENOSYS;
  return -1;
#endif
}

#endif
