// Counts a process's heap allocations, for the allocation figures of benchmarks/ratchet.sh: loaded with
// LD_PRELOAD (glibc), it answers malloc, calloc, realloc, posix_memalign and aligned_alloc through
// glibc's own entry points and, at exit, writes the number of calls to the file named by
// RTCTRACE_ALLOC_COUNT_FILE. free is glibc's.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static uint64_t calls;

static inline void counted(void) { __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED); }

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { counted(); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { counted(); return __libc_realloc(p, n); }

void *aligned_alloc(size_t alignment, size_t n) {
    counted();
    return __libc_memalign(alignment, n);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
    counted();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, n);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("RTCTRACE_ALLOC_COUNT_FILE");
    if (path == NULL) return;
    char text[32];
    int i = (int)sizeof(text);
    uint64_t n = __atomic_load_n(&calls, __ATOMIC_RELAXED);
    text[--i] = '\n';
    do { text[--i] = (char)('0' + n % 10); n /= 10; } while (n > 0);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    (void)!write(fd, text + i, sizeof(text) - (size_t)i);
    close(fd);
}
