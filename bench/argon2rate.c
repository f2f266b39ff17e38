/* Raw Argon2id rate of libsodium at the server's parameters (19 MiB, t=2, p=1).
 *
 *   argon2rate THREADS SECONDS   -> prints "<hashes/s>" measured over SECONDS on THREADS threads
 *   argon2rate --hash PASSWORD   -> prints one PHC string (the seeder reuses it for every account)
 *
 * Build: gcc -O2 -pthread -o argon2rate argon2rate.c -lsodium
 */
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OPS 2ULL
#define MEM (19ULL * 1024 * 1024)

static double deadline;
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg) {
    long *count = arg;
    char out[crypto_pwhash_STRBYTES];
    while (now() < deadline) {
        if (crypto_pwhash_str(out, "bench-password", 14, OPS, MEM) != 0) { perror("crypto_pwhash_str"); exit(1); }
        (*count)++;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (sodium_init() < 0) return 1;
    if (argc == 3 && strcmp(argv[1], "--hash") == 0) {
        char out[crypto_pwhash_STRBYTES];
        if (crypto_pwhash_str(out, argv[2], strlen(argv[2]), OPS, MEM) != 0) return 1;
        puts(out);
        return 0;
    }
    if (argc != 3) { fprintf(stderr, "usage: argon2rate THREADS SECONDS | --hash PASSWORD\n"); return 2; }
    int threads = atoi(argv[1]);
    double seconds = atof(argv[2]);
    pthread_t ids[256];
    long counts[256] = {0};
    if (threads < 1 || threads > 256) return 2;
    double start = now();
    deadline = start + seconds;
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, worker, &counts[i]);
    long total = 0;
    for (int i = 0; i < threads; i++) { pthread_join(ids[i], NULL); total += counts[i]; }
    printf("%.1f\n", total / (now() - start));
    return 0;
}
