/* The read floor of decoding a whole MPEG-TS file: reads FILE with pread in chunks of CHUNK KiB on
 * THREADS threads (each its own contiguous share of the file, as Subweave's pieces are), touches
 * the header of every 188-byte packet, and does nothing else. Prints the wall time.
 *
 *   cc -O2 -pthread -o read-floor Benchmarks/read-floor.c
 *   read-floor FILE CHUNK_KIB THREADS          (e.g. read-floor big.ts 192 2)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { packet_size = 188, most_threads = 64 };

static const char *path;
static size_t chunk;
static off_t file_size;
static long threads;

/* Reads thread `arg`'s share; returns a sum of header bytes so that the reads are not optimised away. */
static void *read_share(void *arg) {
    long index = (long)arg;
    off_t share = file_size / threads / packet_size * packet_size;
    off_t start = index * share, end = index == threads - 1 ? file_size : start + share;
    int fd = open(path, O_RDONLY);
    unsigned char *buffer = malloc(chunk);
    unsigned long sum = 0;
    if (fd < 0 || buffer == NULL) { perror(path); exit(1); }
    for (off_t at = start; at < end;) {
        size_t want = chunk;
        if (at + (off_t)want > end) want = (size_t)(end - at);
        ssize_t got = pread(fd, buffer, want, at);
        if (got <= 0) break;
        for (ssize_t i = 0; i + 4 <= got; i += packet_size) sum += buffer[i + 1] ^ buffer[i + 3];
        at += got;
    }
    close(fd);
    free(buffer);
    return (void *)sum;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: read-floor FILE CHUNK_KIB THREADS\n"); return 2; }
    path = argv[1];
    chunk = (size_t)atol(argv[2]) * 1024;
    threads = atol(argv[3]);
    struct stat info;
    if (stat(path, &info) != 0) { perror(path); return 1; }
    if (chunk == 0 || threads < 1 || threads > most_threads) { fprintf(stderr, "CHUNK_KIB > 0, 1 <= THREADS <= %d\n", most_threads); return 2; }
    file_size = info.st_size;
    struct timespec began, ended;
    clock_gettime(CLOCK_MONOTONIC, &began);
    pthread_t workers[most_threads];
    for (long i = 0; i < threads; i++) pthread_create(&workers[i], NULL, read_share, (void *)i);
    unsigned long sum = 0;
    for (long i = 0; i < threads; i++) {
        void *part;
        pthread_join(workers[i], &part);
        sum += (unsigned long)part;
    }
    clock_gettime(CLOCK_MONOTONIC, &ended);
    printf("%s: %zu KiB chunks on %ld thread(s): %.4f s (%lu)\n", path, chunk / 1024, threads,
           (double)(ended.tv_sec - began.tv_sec) + (double)(ended.tv_nsec - began.tv_nsec) / 1e9, sum);
    return 0;
}
