#ifndef CFOLIOSANITIZER_H
#define CFOLIOSANITIZER_H

// Happens-before edges for ThreadSanitizer, which cannot see
// Synchronization.Mutex on Linux: a contended lock is handed over by the
// kernel (a priority-inheriting futex), with no atomic access the sanitizer
// could observe. Without the sanitizer's runtime linked in, both do nothing.

/// The calling thread has just taken the lock at `address`.
void folio_tsan_acquire(const void *address);

/// The calling thread is about to give up the lock at `address`.
void folio_tsan_release(const void *address);

#endif
