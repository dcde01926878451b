/*
 * source.c: what one source address may take of the lobby. Every share
 * of the relay that all users hold in common (connections, rooms, bytes
 * kept in rooms' transcripts, the budget of wrong codes) is counted per
 * source, so the relay can give each address a bounded part of it. A
 * source is an IPv4 address, or an IPv6 /64 (one host is usually given a
 * whole /64, so counting per /128 would hand it 2^64 fresh budgets); an
 * IPv4-mapped IPv6 address counts as its IPv4 address. Sources live in a
 * chained hash table for as long as they hold a connection or a room or
 * their guess bucket is not yet full again.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "room_internal.h"
#include "tb_error.h"

/* FNV-1a over the key. */
static size_t bucket_of(const uint8_t key[LOBBY_SOURCE_KEY])
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < LOBBY_SOURCE_KEY; i++)
        h = (h ^ key[i]) * 16777619u;
    return h % LOBBY_SOURCE_BUCKETS;
}

int lobby__source_key(const char *host, uint8_t key[LOBBY_SOURCE_KEY])
{
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    uint8_t a[16];

    memset(key, 0, LOBBY_SOURCE_KEY);
    if (inet_pton(AF_INET, host, a) == 1) {
        key[0] = 4;
        memcpy(key + 1, a, 4);
        return 0;
    }
    if (inet_pton(AF_INET6, host, a) == 1) {
        if (memcmp(a, mapped, sizeof mapped) == 0) {
            key[0] = 4;
            memcpy(key + 1, a + 12, 4);
        } else {
            key[0] = 6;
            memcpy(key + 1, a, 8); /* the /64 */
        }
        return 0;
    }
    /* Not an address (net/ could not name the peer): all such share one
     * source, which errs on the side of the lobby. */
    key[0] = 0xff;
    return TB_E_ARG;
}

int lobby__source_trusted(const Lobby_Limits *lim,
                          const uint8_t key[LOBBY_SOURCE_KEY])
{
    for (uint32_t i = 0; i < lim->ntrust; i++) {
        const uint8_t *net = lim->trust_net[i];
        unsigned bits = lim->trust_bits[i], have = key[0] == 4 ? 32 : 64;
        if (net[0] != key[0])
            continue;
        if (bits > have)
            bits = have; /* a source is no narrower than a /64 */
        unsigned whole = bits / 8, rest = bits % 8;
        if (memcmp(net + 1, key + 1, whole) != 0)
            continue;
        if (rest != 0 &&
            ((net[1 + whole] ^ key[1 + whole]) & (0xff00u >> rest) & 0xff))
            continue;
        return 1;
    }
    return 0;
}

int lobby_limits_trust(Lobby_Limits *lim, const char *cidr)
{
    char addr[64];
    const char *slash = strchr(cidr, '/');
    size_t n = slash != NULL ? (size_t)(slash - cidr) : strlen(cidr);
    uint8_t a[16];
    unsigned long bits;
    int family;

    if (n == 0 || n >= sizeof addr)
        return TB_E_ARG;
    memcpy(addr, cidr, n);
    addr[n] = '\0';
    if (inet_pton(AF_INET, addr, a) == 1)
        family = 4;
    else if (inet_pton(AF_INET6, addr, a) == 1)
        family = 6;
    else
        return TB_E_ARG;
    bits = family == 4 ? 32 : 128;
    if (slash != NULL) {
        char *end;
        if (slash[1] < '0' || slash[1] > '9')
            return TB_E_ARG;
        bits = strtoul(slash + 1, &end, 10);
        if (*end != '\0' || bits > (family == 4 ? 32u : 128u))
            return TB_E_ARG;
    }
    if (lim->ntrust >= LOBBY_TRUST_MAX)
        return TB_E_LIMIT;
    uint8_t *net = lim->trust_net[lim->ntrust];
    memset(net, 0, 17);
    net[0] = (uint8_t)family;
    /* the network's own address: the bits past the prefix cleared */
    for (unsigned i = 0; i < (family == 4 ? 4u : 16u); i++) {
        unsigned keep = bits > i * 8 ? bits - i * 8 : 0;
        net[1 + i] = keep >= 8 ? a[i] : (uint8_t)(a[i] & (0xff00u >> keep));
    }
    lim->trust_bits[lim->ntrust++] = (uint8_t)bits;
    return 0;
}

int lobby_limits_trust_text(const Lobby_Limits *lim, uint32_t i, char *out,
                            size_t cap)
{
    char a[INET6_ADDRSTRLEN];
    if (i >= lim->ntrust || cap == 0)
        return TB_E_ARG;
    const uint8_t *net = lim->trust_net[i];
    if (inet_ntop(net[0] == 4 ? AF_INET : AF_INET6, net + 1, a, sizeof a) ==
        NULL)
        return TB_E_ARG;
    int n = snprintf(out, cap, "%s/%u", a, lim->trust_bits[i]);
    return n < 0 || (size_t)n >= cap ? TB_E_LIMIT : 0;
}

Lobby_Source *lobby__source_get(Lobby_Sources *t, const char *host)
{
    uint8_t key[LOBBY_SOURCE_KEY];
    size_t b;
    Lobby_Source *s;

    (void)lobby__source_key(host, key);
    b = bucket_of(key);
    for (s = t->buckets[b]; s != NULL; s = s->next)
        if (memcmp(s->key, key, LOBBY_SOURCE_KEY) == 0)
            return s;
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    memcpy(s->key, key, LOBBY_SOURCE_KEY);
    s->factor = t->lim != NULL && lobby__source_trusted(t->lim, key)
                    ? LOBBY_TRUST_FACTOR
                    : 1;
    s->next = t->buckets[b];
    t->buckets[b] = s;
    t->n++;
    return s;
}

void lobby__sources_sweep(Lobby_Sources *t, uint64_t now_us,
                          size_t max_sources)
{
    /* Over max_sources, budgets of addresses that hold nothing are
     * forgotten early: the lobby-wide guess limit still holds them. */
    int crowded = t->n > max_sources;
    for (size_t b = 0; b < LOBBY_SOURCE_BUCKETS; b++) {
        Lobby_Source **pp = &t->buckets[b];
        while (*pp != NULL) {
            Lobby_Source *s = *pp;
            if ((crowded || (s->tat <= now_us && s->fetch_tat <= now_us &&
                             s->data_tat <= now_us &&
                             s->list_tat <= now_us)) &&
                s->conns == 0 && s->rooms == 0) {
                *pp = s->next;
                free(s);
                t->n--;
            } else {
                pp = &s->next;
            }
        }
    }
}

void lobby__sources_free(Lobby_Sources *t)
{
    for (size_t b = 0; b < LOBBY_SOURCE_BUCKETS; b++)
        while (t->buckets[b] != NULL) {
            Lobby_Source *s = t->buckets[b];
            t->buckets[b] = s->next;
            free(s);
        }
    t->n = 0;
}

/* ---- the guess limit: a GCRA token bucket per source and one for all -- */

static uint64_t global_refill_us(const Lobby_Limits *lim)
{
    return 1000000u / lim->guess_global_per_s + 1;
}

/* Is the bucket at tat out of tokens at now_us? */
static int bucket_empty(uint64_t tat, uint64_t now_us, uint64_t refill_us,
                        uint64_t burst)
{
    return tat > now_us + (burst - 1) * refill_us;
}

/* One token taken from the bucket at *tat. */
static void bucket_add(uint64_t *tat, uint64_t now_us, uint64_t refill_us)
{
    *tat = (*tat > now_us ? *tat : now_us) + refill_us;
}

int lobby__bucket_take(uint64_t *tat, uint64_t now_us, uint64_t refill_us,
                       uint64_t burst, uint64_t *ready_us)
{
    if (bucket_empty(*tat, now_us, refill_us, burst)) {
        if (ready_us != NULL)
            *ready_us = *tat - (burst - 1) * refill_us;
        return 1;
    }
    bucket_add(tat, now_us, refill_us);
    return 0;
}

int lobby__bucket_take_n(uint64_t *tat, uint64_t now_us, uint64_t refill_us,
                         uint64_t burst, uint64_t n)
{
    if (n == 0)
        return 0;
    if (n > burst ||
        bucket_empty(*tat + (n - 1) * refill_us, now_us, refill_us, burst))
        return 1;
    *tat = (*tat > now_us ? *tat : now_us) + n * refill_us;
    return 0;
}

void lobby__bucket_meter(uint64_t *tat, uint64_t now_us, uint64_t refill_us,
                         uint64_t burst, uint64_t n)
{
    uint64_t t = (*tat > now_us ? *tat : now_us) + n * refill_us;
    uint64_t most = now_us + burst * refill_us;
    *tat = t < most ? t : most;
}

uint64_t lobby__bucket_used(uint64_t tat, uint64_t now_us, uint64_t refill_us)
{
    return tat > now_us ? (tat - now_us + refill_us - 1) / refill_us : 0;
}

int lobby__guess_limited(const Lobby_Source *s, uint64_t global_tat,
                         const Lobby_Limits *lim, uint64_t now_us)
{
    return (s != NULL &&
            bucket_empty(s->tat, now_us, (uint64_t)lim->guess_refill_ms * 1000,
                         lim->guess_burst)) ||
           bucket_empty(global_tat, now_us, global_refill_us(lim),
                        lim->guess_global_per_s);
}

void lobby__guess_count(Lobby_Source *s, uint64_t *global_tat,
                        const Lobby_Limits *lim, uint64_t now_us)
{
    if (s != NULL)
        bucket_add(&s->tat, now_us, (uint64_t)lim->guess_refill_ms * 1000);
    bucket_add(global_tat, now_us, global_refill_us(lim));
}
