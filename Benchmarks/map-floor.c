/* read-floor.c's job done by mapping the file instead of reading it: maps FILE on THREADS threads
 * (each its own contiguous share), advises the kernel as HOW says, touches the header of every
 * 188-byte packet, and does nothing else. Prints the wall time. Compared with read-floor, it
 * shows whether page faults cost less than the copy `pread` makes (on this machine they cost more).
 *
 *   cc -O2 -pthread -o map-floor Benchmarks/map-floor.c
 *   map-floor FILE THREADS HOW     (HOW: plain, populate, sequential, hugepage, hugepage-populate)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { packet_size = 188, most_threads = 64 };

static const char *path, *how;
static off_t file_size;
static long threads;

/* Maps and touches thread `arg`'s share; returns a sum of header bytes so that the reads are not
 * optimised away. */
static void *map_share(void *arg) {
    long index = (long)arg;
    long page = sysconf(_SC_PAGESIZE);
    off_t share = file_size / threads / page * page;
    off_t start = index * share, end = index == threads - 1 ? file_size : start + share;
    size_t length = (size_t)(end - start);
    int fd = open(path, O_RDONLY);
    if (fd < 0) { perror(path); exit(1); }
    unsigned char *bytes = mmap(NULL, length, PROT_READ, MAP_PRIVATE | (strcmp(how, "populate") == 0 ? MAP_POPULATE : 0), fd, start);
    if (bytes == MAP_FAILED) { perror("mmap"); exit(1); }
    if (strcmp(how, "sequential") == 0) madvise(bytes, length, MADV_SEQUENTIAL);
    if (strncmp(how, "hugepage", 8) == 0) madvise(bytes, length, MADV_HUGEPAGE);
    if (strcmp(how, "hugepage-populate") == 0) madvise(bytes, length, MADV_POPULATE_READ);
    unsigned long sum = 0;
    for (size_t i = 0; i + 4 <= length; i += packet_size) sum += bytes[i + 1] ^ bytes[i + 3];
    munmap(bytes, length);
    close(fd);
    return (void *)sum;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: map-floor FILE THREADS plain|populate|sequential|hugepage|hugepage-populate\n"); return 2; }
    path = argv[1];
    threads = atol(argv[2]);
    how = argv[3];
    const char *known[] = {"plain", "populate", "sequential", "hugepage", "hugepage-populate"};
    int ok = 0;
    for (size_t k = 0; k < sizeof known / sizeof *known; k++) ok |= strcmp(how, known[k]) == 0;
    struct stat info;
    if (stat(path, &info) != 0) { perror(path); return 1; }
    if (!ok || threads < 1 || threads > most_threads) { fprintf(stderr, "1 <= THREADS <= %d; HOW: plain, populate, sequential, hugepage, hugepage-populate\n", most_threads); return 2; }
    file_size = info.st_size;
    struct timespec began, ended;
    clock_gettime(CLOCK_MONOTONIC, &began);
    pthread_t workers[most_threads];
    for (long i = 0; i < threads; i++) pthread_create(&workers[i], NULL, map_share, (void *)i);
    unsigned long sum = 0;
    for (long i = 0; i < threads; i++) {
        void *part;
        pthread_join(workers[i], &part);
        sum += (unsigned long)part;
    }
    clock_gettime(CLOCK_MONOTONIC, &ended);
    printf("%s: mapped (%s) on %ld thread(s): %.4f s (%lu)\n", path, how, threads,
           (double)(ended.tv_sec - began.tv_sec) + (double)(ended.tv_nsec - began.tv_nsec) / 1e9, sum);
    return 0;
}
