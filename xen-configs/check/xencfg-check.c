/*
 * xencfg-check: validates xl domain configs and cpupool configs with Xen's own config parser
 * (libxlutil, the library behind `xl create` and `xl cpupool-create`), then checks the keys the
 * study's set-up relies on and that the files agree with each other.
 *
 * usage: xencfg-check [--filled]
 *                     [--domain FILE [--vcpus N] [--memory MB] [--pin-one-to-one]]...
 *                     [--pool FILE [--sched SCHED]]...
 *
 * Options after --domain FILE or --pool FILE apply to that file. --filled also rejects
 * placeholders (@NAME@) left in kernel, ramdisk, cmdline, disk and vif.
 *
 * Per domain: name; type "pvh"; vcpus; memory (maxmem, if given, equal to it); pool; kernel;
 * disk (each entry through Xen's disk parser); vif (each with a bridge=); cpus, if given, as
 * pCPU numbers, and with --pin-one-to-one a list of exactly vcpus distinct single pCPUs (entry
 * i pins vCPU i).
 * Per pool: name (not Pool-0); sched one of rtds, credit, credit2; cpus as plain pCPU numbers.
 * Across files: a domain's pool is Pool-0 or one of the given pools; the given pools name the
 * same pCPUs (they are alternatives: one exists at a time); a domain in one of them has one vCPU
 * per pCPU; a domain pinned in Pool-0 uses none of the pools' pCPUs.
 *
 * Exit 0: every file valid; 1: a problem (each printed as FILE: KEY: what was expected);
 * 2: usage.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>
#include <libxlutil.h>

#define MAX_FILES 64
#define MAX_CPUS 512
/* pCPU numbers above this are surely a typo; Xen's own limit is the build's NR_CPUS. */
#define MAX_CPU_ID 4095

enum kind { KIND_DOMAIN, KIND_POOL };

struct cfgfile {
    enum kind kind;
    const char *path;
    /* expectations from the command line; 0/NULL = none */
    long want_vcpus;
    long want_memory;
    int pin_one_to_one;
    const char *want_sched;
    /* what was read */
    char *name;
    char *pool;  /* domains */
    char *sched; /* pools */
    long vcpus;
    int cpus[MAX_CPUS];
    int ncpus; /* -1: no cpus key */
    int problems;
};

static struct cfgfile files[MAX_FILES];
static int nfiles;
static int problems;
static int require_filled;

static void problem(struct cfgfile *f, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void problem(struct cfgfile *f, const char *key, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: %s: ", f->path, key);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    f->problems++;
    problems++;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);

    if (!d) {
        perror("xencfg-check");
        exit(2);
    }
    return d;
}

/* A whole decimal number in [0, MAX_CPU_ID]; -1 otherwise. */
static int parse_cpu(const char *s)
{
    char *end;
    long v;

    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v > MAX_CPU_ID)
        return -1;
    return (int)v;
}

static int add_cpu(struct cfgfile *f, const char *key, int cpu)
{
    int i;

    for (i = 0; i < f->ncpus; i++) {
        if (f->cpus[i] == cpu) {
            problem(f, key, "pCPU %d is named twice; expected each pCPU once", cpu);
            return -1;
        }
    }
    if (f->ncpus >= MAX_CPUS) {
        problem(f, key, "more than %d pCPUs", MAX_CPUS);
        return -1;
    }
    f->cpus[f->ncpus++] = cpu;
    return 0;
}

/* "N" or "N-M" items separated by commas, as xl accepts for a cpus string. */
static int parse_cpu_ranges(struct cfgfile *f, const char *key, const char *text)
{
    char *copy = xstrdup(text), *item, *save = NULL;
    int rc = 0;

    for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *dash;
        int lo, hi, c;

        while (isspace((unsigned char)*item))
            item++;
        dash = strchr(item, '-');
        if (dash)
            *dash = '\0';
        lo = parse_cpu(item);
        hi = dash ? parse_cpu(dash + 1) : lo;
        if (lo < 0 || hi < 0 || hi < lo) {
            problem(f, key, "\"%s\": expected pCPU numbers or ranges such as \"10-11\" or \"10,11\"", text);
            rc = -1;
            break;
        }
        for (c = lo; c <= hi && rc == 0; c++)
            rc = add_cpu(f, key, c);
        if (rc)
            break;
    }
    free(copy);
    if (rc == 0 && f->ncpus == 0) {
        problem(f, key, "empty; expected at least one pCPU");
        rc = -1;
    }
    return rc;
}

static const char *get_string(struct cfgfile *f, XLU_Config *cfg, const char *key,
                              int required, const char *expected)
{
    const char *v = NULL;
    int rc = xlu_cfg_get_string(cfg, key, &v, 1);

    if (rc == ESRCH) {
        if (required)
            problem(f, key, "missing; expected %s", expected);
        return NULL;
    }
    if (rc) {
        problem(f, key, "expected a single value (%s), found a list", expected);
        return NULL;
    }
    if (required && !*v) {
        problem(f, key, "empty; expected %s", expected);
        return NULL;
    }
    return v;
}

static int get_long(struct cfgfile *f, XLU_Config *cfg, const char *key, int required,
                    long *out)
{
    int rc = xlu_cfg_get_long(cfg, key, out, 1);

    if (rc == ESRCH) {
        if (required)
            problem(f, key, "missing; expected a whole number");
        return -1;
    }
    if (rc) {
        problem(f, key, "expected a whole number");
        return -1;
    }
    return 0;
}

static void check_filled(struct cfgfile *f, const char *key, const char *value)
{
    const char *at = value ? strchr(value, '@') : NULL;
    const char *end;

    if (!require_filled || !at)
        return;
    end = strchr(at + 1, '@');
    if (end && end > at + 1)
        problem(f, key, "placeholder %.*s is not filled in", (int)(end - at + 1), at);
}

/* cpus = [...] or cpus = "...". As_pins: each list entry is one vCPU's pCPU (xl.cfg);
 * otherwise each entry is read by xl cpupool-create with atoi(), so it must be one number. */
static void read_cpus(struct cfgfile *f, XLU_Config *cfg, int required, int as_pins)
{
    XLU_ConfigList *list;
    const char *s;
    int n, i, rc;

    f->ncpus = -1;
    rc = xlu_cfg_get_list(cfg, "cpus", &list, &n, 1);
    if (rc == ESRCH) {
        if (required)
            problem(f, "cpus", "missing; expected %s",
                    as_pins ? "a list with one pCPU per vCPU, e.g. [\"2\", \"3\"]"
                            : "the pool's pCPUs, e.g. [\"10\", \"11\"]");
        return;
    }
    f->ncpus = 0;
    if (rc == 0) {
        if (n == 0) {
            problem(f, "cpus", "empty list; expected at least one pCPU");
            return;
        }
        for (i = 0; i < n; i++) {
            const char *item = xlu_cfg_get_listitem(list, i);
            int cpu = item ? parse_cpu(item) : -1;

            if (cpu < 0) {
                problem(f, "cpus", "entry %d \"%s\": expected one pCPU number%s", i,
                        item ? item : "", as_pins ? " (one-to-one pinning)"
                                                  : " (xl cpupool-create reads each entry with atoi)");
                return;
            }
            if (add_cpu(f, "cpus", cpu))
                return;
        }
        return;
    }
    s = get_string(f, cfg, "cpus", 1, "pCPU numbers");
    if (s)
        parse_cpu_ranges(f, "cpus", s);
}

static void check_disks(struct cfgfile *f, XLU_Config *cfg)
{
    XLU_ConfigList *list;
    int n, i;

    if (xlu_cfg_get_list(cfg, "disk", &list, &n, 1) || n == 0) {
        problem(f, "disk", "missing or not a list; expected e.g. [\"format=raw, vdev=xvda, access=rw, target=@DISK@\"]");
        return;
    }
    for (i = 0; i < n; i++) {
        const char *spec = xlu_cfg_get_listitem(list, i);
        libxl_device_disk disk;

        libxl_device_disk_init(&disk);
        /* Xen's parser prints its own reason to stderr, named after this file. */
        if (xlu_disk_parse(cfg, 1, &spec, &disk))
            problem(f, "disk", "entry %d \"%s\" rejected by Xen's disk parser", i, spec);
        else if (!disk.vdev || !disk.pdev_path || !*disk.pdev_path)
            problem(f, "disk", "entry %d \"%s\": expected both vdev= and target=", i, spec);
        else
            check_filled(f, "disk", spec);
        libxl_device_disk_dispose(&disk);
    }
}

static void check_vifs(struct cfgfile *f, XLU_Config *cfg)
{
    XLU_ConfigList *list;
    int n, i;

    if (xlu_cfg_get_list(cfg, "vif", &list, &n, 1) || n == 0) {
        problem(f, "vif", "missing or not a list; expected e.g. [\"bridge=@BRIDGE@\"]");
        return;
    }
    for (i = 0; i < n; i++) {
        const char *spec = xlu_cfg_get_listitem(list, i);

        if (!strstr(spec, "bridge="))
            problem(f, "vif", "entry %d \"%s\": expected a bridge= (the guests reach each other through it)", i, spec);
        else
            check_filled(f, "vif", spec);
    }
}

static void check_domain(struct cfgfile *f, XLU_Config *cfg)
{
    const char *s;
    long memory = 0, maxmem;

    if ((s = get_string(f, cfg, "name", 1, "the domain's name")))
        f->name = xstrdup(s);
    if ((s = get_string(f, cfg, "type", 1, "\"pvh\"")) && strcmp(s, "pvh"))
        problem(f, "type", "\"%s\"; expected \"pvh\"", s);
    if (get_long(f, cfg, "vcpus", 1, &f->vcpus) == 0) {
        if (f->vcpus < 1)
            problem(f, "vcpus", "%ld; expected at least 1", f->vcpus);
        else if (f->want_vcpus && f->vcpus != f->want_vcpus)
            problem(f, "vcpus", "%ld; expected %ld", f->vcpus, f->want_vcpus);
    }
    if (get_long(f, cfg, "memory", 1, &memory) == 0) {
        if (memory < 1)
            problem(f, "memory", "%ld; expected a size in MB", memory);
        else if (f->want_memory && memory != f->want_memory)
            problem(f, "memory", "%ld MB; expected %ld", memory, f->want_memory);
    }
    if (get_long(f, cfg, "maxmem", 0, &maxmem) == 0 && memory && maxmem != memory)
        problem(f, "maxmem", "%ld; expected equal to memory (%ld): no ballooning during a measured run",
                maxmem, memory);
    if ((s = get_string(f, cfg, "pool", 1, "the cpupool's name")))
        f->pool = xstrdup(s);
    s = get_string(f, cfg, "kernel", 1, "the path of a PVH-capable kernel in dom0");
    check_filled(f, "kernel", s);
    check_filled(f, "ramdisk", get_string(f, cfg, "ramdisk", 0, "an initramfs path"));
    check_filled(f, "cmdline", get_string(f, cfg, "cmdline", 0, "a kernel command line"));
    check_disks(f, cfg);
    check_vifs(f, cfg);

    read_cpus(f, cfg, f->pin_one_to_one, 1);
    if (f->pin_one_to_one && f->ncpus > 0 && f->vcpus > 0 && f->ncpus != f->vcpus)
        problem(f, "cpus", "%d pCPUs pinned for %ld vCPUs; expected one pCPU per vCPU", f->ncpus,
                f->vcpus);
}

static void check_pool(struct cfgfile *f, XLU_Config *cfg)
{
    const char *s;

    if ((s = get_string(f, cfg, "name", 1, "the cpupool's name"))) {
        f->name = xstrdup(s);
        if (!strcmp(s, "Pool-0"))
            problem(f, "name", "\"Pool-0\" is the host's boot pool; expected a new pool's name");
    }
    if ((s = get_string(f, cfg, "sched", 1, "rtds, credit or credit2"))) {
        f->sched = xstrdup(s);
        if (strcmp(s, "rtds") && strcmp(s, "credit") && strcmp(s, "credit2"))
            problem(f, "sched", "\"%s\"; expected rtds, credit or credit2", s);
        else if (f->want_sched && strcmp(s, f->want_sched))
            problem(f, "sched", "\"%s\"; expected \"%s\"", s, f->want_sched);
    }
    read_cpus(f, cfg, 1, 0);
}

static void check_file(struct cfgfile *f)
{
    XLU_Config *cfg = xlu_cfg_init(stderr, f->path);
    int rc;

    if (!cfg) {
        perror("xencfg-check: xlu_cfg_init");
        exit(2);
    }
    f->ncpus = -1;
    /* On a syntax error Xen's parser prints FILE:LINE and what it found to stderr. */
    rc = xlu_cfg_readfile(cfg, f->path);
    if (rc) {
        problem(f, "syntax", "rejected by Xen's config parser (xlu_cfg_readfile: %s)", strerror(rc));
    } else if (f->kind == KIND_DOMAIN) {
        check_domain(f, cfg);
    } else {
        check_pool(f, cfg);
    }
    xlu_cfg_destroy(cfg);
}

static const struct cfgfile *find_pool(const char *name)
{
    int i;

    for (i = 0; i < nfiles; i++)
        if (files[i].kind == KIND_POOL && files[i].name && !strcmp(files[i].name, name))
            return &files[i];
    return NULL;
}

static int has_cpu(const struct cfgfile *f, int cpu)
{
    int i;

    for (i = 0; i < f->ncpus; i++)
        if (f->cpus[i] == cpu)
            return 1;
    return 0;
}

static int same_cpus(const struct cfgfile *a, const struct cfgfile *b)
{
    int i;

    if (a->ncpus != b->ncpus)
        return 0;
    for (i = 0; i < a->ncpus; i++)
        if (!has_cpu(b, a->cpus[i]))
            return 0;
    return 1;
}

static void check_across(void)
{
    const struct cfgfile *first_pool = NULL;
    int i, j, c, npools = 0;

    for (i = 0; i < nfiles; i++) {
        struct cfgfile *f = &files[i];

        if (!f->name)
            continue;
        for (j = 0; j < i; j++)
            if (files[j].kind == f->kind && files[j].name && !strcmp(files[j].name, f->name))
                problem(f, "name", "\"%s\" is also the name in %s; expected unique names", f->name,
                        files[j].path);
        if (f->kind == KIND_POOL)
            npools++;
        if (f->kind == KIND_POOL && f->ncpus > 0) {
            if (!first_pool)
                first_pool = f;
            else if (!same_cpus(f, first_pool))
                problem(f, "cpus", "expected the same pCPUs as %s: the pools are alternatives for the "
                        "rt-vm, one at a time on the same pCPUs", first_pool->path);
        }
    }

    for (i = 0; i < nfiles; i++) {
        struct cfgfile *d = &files[i];
        const struct cfgfile *p;

        if (d->kind != KIND_DOMAIN || !d->pool)
            continue;
        if (!strcmp(d->pool, "Pool-0")) {
            for (j = 0; j < nfiles; j++) {
                if (files[j].kind != KIND_POOL)
                    continue;
                for (c = 0; c < d->ncpus; c++)
                    if (has_cpu(&files[j], d->cpus[c]))
                        problem(d, "cpus", "pCPU %d is also in cpupool %s (%s); expected pCPUs of "
                                "Pool-0 only: a pCPU belongs to one pool", d->cpus[c],
                                files[j].name ? files[j].name : "?", files[j].path);
            }
            continue;
        }
        /* A domain file checked on its own: its pool cannot be looked up. */
        if (npools == 0)
            continue;
        p = find_pool(d->pool);
        if (!p) {
            problem(d, "pool", "\"%s\"; expected Pool-0 or the name of one of the given cpupool files",
                    d->pool);
            continue;
        }
        if (p->ncpus > 0 && d->vcpus > 0 && d->vcpus != p->ncpus)
            problem(d, "vcpus", "%ld, but cpupool %s has %d pCPUs (%s); expected one pCPU per vCPU, "
                    "so that budget = period is a whole pCPU each", d->vcpus, p->name, p->ncpus,
                    p->path);
    }
}

static void usage(void)
{
    fputs("usage: xencfg-check [--filled]\n"
          "                    [--domain FILE [--vcpus N] [--memory MB] [--pin-one-to-one]]...\n"
          "                    [--pool FILE [--sched rtds|credit|credit2]]...\n",
          stderr);
    exit(2);
}

static long parse_positive(const char *opt, const char *s)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v < 1) {
        fprintf(stderr, "xencfg-check: %s %s: expected a positive whole number\n", opt, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    struct cfgfile *cur = NULL;
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;

        if (!strcmp(a, "--filled")) {
            require_filled = 1;
        } else if (!strcmp(a, "--domain") || !strcmp(a, "--pool")) {
            if (!v)
                usage();
            if (nfiles == MAX_FILES) {
                fprintf(stderr, "xencfg-check: more than %d files\n", MAX_FILES);
                return 2;
            }
            cur = &files[nfiles++];
            cur->kind = !strcmp(a, "--domain") ? KIND_DOMAIN : KIND_POOL;
            cur->path = v;
            i++;
        } else if (!strcmp(a, "--pin-one-to-one") && cur && cur->kind == KIND_DOMAIN) {
            cur->pin_one_to_one = 1;
        } else if (!strcmp(a, "--vcpus") && v && cur && cur->kind == KIND_DOMAIN) {
            cur->want_vcpus = parse_positive(a, v);
            i++;
        } else if (!strcmp(a, "--memory") && v && cur && cur->kind == KIND_DOMAIN) {
            cur->want_memory = parse_positive(a, v);
            i++;
        } else if (!strcmp(a, "--sched") && v && cur && cur->kind == KIND_POOL) {
            cur->want_sched = v;
            i++;
        } else {
            fprintf(stderr, "xencfg-check: unexpected argument \"%s\"\n", a);
            usage();
        }
    }
    if (nfiles == 0)
        usage();

    for (i = 0; i < nfiles; i++)
        check_file(&files[i]);
    check_across();

    for (i = 0; i < nfiles; i++)
        if (!files[i].problems)
            printf("ok: %s (%s \"%s\")\n", files[i].path,
                   files[i].kind == KIND_DOMAIN ? "domain" : "cpupool", files[i].name);
    fflush(stdout);
    if (problems) {
        fprintf(stderr, "xencfg-check: %d problem(s); %d file(s) checked\n", problems, nfiles);
        return 1;
    }
    return 0;
}
