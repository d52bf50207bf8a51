/* plot_script.c -- gnuplot scripts, their axes and their drawing (mb_plot_script.h). */
#include "mb_plot_script.h"
#include "mb_status.h"
#include "mb_fork.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* colours dark enough for grey-scale print; shapes: filled / open pairs */
static const char *const colours[8] = { "#000000", "#d55e00", "#0072b2", "#009e73",
                                        "#cc79a7", "#e69f00", "#56b4e9", "#777777" };
static const int filled[6] = { 7, 5, 9, 11, 13, 15 }, open_pt[6] = { 6, 4, 8, 10, 12, 14 };

void mb_gp_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if (*s == '_' || *s == '^' || *s == '@' || *s == '{' || *s == '}')
            fputs("\\\\", f);
        fputc(*s, f);
    }
}

static void style(FILE *f, size_t k, int how)
{
    static const char *const width[] = { "1.5", "1.5", "1.5", "1.5", "2.5", "1.5", "1", "1.5" };
    fprintf(f, "lc rgb \"%s\" lw %s", colours[k % 8], width[how]);
    if (how == MB_GP_FILLED || how == MB_GP_OPEN || how == MB_GP_LINESPOINTS
        || how == MB_GP_MARKED)
        fprintf(f, " pt %d ps 1.3", how == MB_GP_OPEN ? open_pt[k % 6] : filled[k % 6]);
    if (how == MB_GP_REFERENCE)
        fputs(" dt (10,6)", f);          /* the same long dashes for every reference */
    else if (how == MB_GP_FIT)
        fputs(" dt 1", f);
    else if (how != MB_GP_FILLED && how != MB_GP_OPEN)
        fprintf(f, " dt %zu", k % 5 + 1);
}

void mb_gp_clause(FILE *g, int *first, const char *source, const char *select, size_t k,
                  int how, const char *title, const char *axes, size_t every)
{
    static const char *const with[] = { "points", "points", "lines", "linespoints", "lines",
                                        "linespoints", "lines", "lines" };
    fprintf(g, "%s  \"%s\" %s axes %s with %s ", *first ? "plot \\\n" : ", \\\n", source,
            select, axes ? axes : "x1y1", with[how]);
    style(g, k, how);
    if (how == MB_GP_MARKED)
        fprintf(g, " pi %zu", every);
    if (title) {
        fputs(" title \"", g);
        mb_gp_text(g, title);
        fputs("\"", g);
    } else {
        fputs(" notitle", g);
    }
    *first = 0;
}

static FILE *open_in(mb_plot_batch *b, const char *stem, const char *ext)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", b->dir, stem, ext);
    FILE *f = fopen(path, "w");
    if (f == NULL && b->status == MB_SUCCESS)
        b->status = mb_error_record(MB_EIO, __FILE__, __LINE__, "cannot create %s: %s", path,
                                    strerror(errno));
    return f;
}

int mb_gp_open(mb_plot_batch *b, const char *stem, const char *title, const char *xlabel,
               const char *ylabel, size_t key_rows, FILE **d, FILE **g)
{
    *d = open_in(b, stem, ".dat");
    *g = *d ? open_in(b, stem, ".gp") : NULL;
    if (*g == NULL) {
        if (*d)
            fclose(*d);
        *d = NULL;
        return b->status;
    }
    FILE *f = *g;
    /* 480 pixels for the plot and its labels, 21 per legend entry (in one column: the
     * entries are long) */
    int height = 480 + 21 * (int)(key_rows < 40 ? key_rows : 40);
    fprintf(f, "# %s.gp -- written by motionbench plot.  gnuplot %s.gp draws %s.svg;\n"
               "# gnuplot -e 'fmt=\"png\"' %s.gp draws %s.png.\nreset\n"
               "if (!exists(\"fmt\")) fmt = \"svg\"\n"
               "if (fmt eq \"png\") { set terminal pngcairo size 900,%d enhanced "
               "font \"sans,11\" dashed } else { set terminal svg size 900,%d enhanced "
               "font \"sans,11\" dashed }\nset output \"%s.\".fmt\nset title \"",
            stem, stem, stem, stem, stem, height, height, stem);
    mb_gp_text(f, title);
    fputs("\"\nset xlabel \"", f);
    mb_gp_text(f, xlabel);
    fputs("\"\nset ylabel \"", f);
    mb_gp_text(f, ylabel);
    fputs("\"\nset grid lc rgb \"#dddddd\"\nset key outside below left Left reverse samplen 4 "
          "spacing 1.2\nset datafile missing \"nan\"\n", f);
    return MB_SUCCESS;
}

/* the tics m 10^e inside [lo, hi] for the mantissas given; their count, written to g
 * only when write */
static int mantissa_tics(FILE *g, double lo, double hi, const double *m, int nm, int write)
{
    int n = 0;
    for (double e = floor(log10(lo)); e <= ceil(log10(hi)); e++)
        for (int k = 0; k < nm; k++) {
            double v = m[k] * pow(10.0, e);
            if (v >= lo && v <= hi && write)
                fprintf(g, "%s%g", n ? ", " : "", v);
            n += v >= lo && v <= hi;
        }
    return n;
}

/* tics at 1, 2 and 5 times powers of ten inside [lo, hi]; at 1, 2, ..., 9 times them when
 * that gives fewer than 2; the ends when that does too */
static void tics_125(FILE *g, const char *axis, double lo, double hi)
{
    static const double m125[3] = { 1, 2, 5 }, m19[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    fprintf(g, "set format %s \"%%g\"\nset %stics (", axis, axis);
    if (mantissa_tics(g, lo, hi, m125, 3, 0) >= 2)
        mantissa_tics(g, lo, hi, m125, 3, 1);
    else if (mantissa_tics(g, lo, hi, m19, 9, 0) >= 2)
        mantissa_tics(g, lo, hi, m19, 9, 1);
    else
        fprintf(g, "%.3g, %.3g", lo, hi);
    fputs(")\n", g);
}

void mb_gp_log_axis(FILE *g, const char *axis, double lo, double hi)
{
    mb_gp_log_axis_at(g, axis, lo, hi, NULL, 0);
}

void mb_gp_log_axis_at(FILE *g, const char *axis, double lo, double hi, const double *tics,
                       size_t n_tics)
{
    double span = log10(hi / lo), pad = span > 0 ? 0.04 * span : 0.1;
    if (pad < 0.02)
        pad = 0.02;
    double a = lo / pow(10.0, pad), b = hi * pow(10.0, pad);
    fprintf(g, "set logscale %s\nset %srange [%.17g:%.17g]\n", axis, axis, a, b);
    if (floor(log10(b)) - ceil(log10(a)) >= 1) {     /* two decades or more inside */
        fprintf(g, "set format %s \"10^{%%L}\"\nset %stics autofreq\n", axis, axis);
    } else if (n_tics >= 2 && n_tics <= 10) {
        fprintf(g, "set format %s \"%%g\"\nset %stics (", axis, axis);
        for (size_t k = 0; k < n_tics; k++)
            fprintf(g, "%s%.6g", k ? ", " : "", tics[k]);
        fputs(")\n", g);
    } else {
        tics_125(g, axis, a, b);
    }
    if (!strcmp(axis, "x2"))        /* the x2 tics above; none of x mirrored there */
        fputs("set xtics nomirror\n", g);
}

void mb_gp_linear_axis(FILE *g, const char *axis, double lo, double hi)
{
    double span = hi - lo;
    double pad = span > 0 ? 0.03 * span : fabs(hi) > 0 ? 0.1 * fabs(hi) : 1.0;
    fprintf(g, "set %srange [%.17g:%.17g]\n", axis, lo - pad, hi + pad);
}

int mb_gp_close(mb_plot_batch *b, FILE *g, FILE *d, const char *stem, int draw)
{
    int bad = 0;
    if (d != NULL)
        bad |= ferror(d) | (fclose(d) != 0);
    if (g == NULL)
        return 0;
    fputs("\nunset output\n", g);
    bad |= ferror(g) | (fclose(g) != 0);
    if (bad && b->status == MB_SUCCESS)
        b->status = mb_error_record(MB_EIO, __FILE__, __LINE__, "cannot write the plot %s/%s: "
                                    "%s", b->dir, stem, strerror(errno));
    if (!draw) {            /* nothing to draw after all: no script without its plot */
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.gp", b->dir, stem);
        unlink(path);
        snprintf(path, sizeof path, "%s/%s.dat", b->dir, stem);
        unlink(path);
        return 0;
    }
    if (b->status != MB_SUCCESS)
        return 0;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        char **s = realloc(b->stems, cap * sizeof *s);
        if (s == NULL) {
            b->status = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
            return 0;
        }
        b->stems = s;
        b->cap = cap;
    }
    if ((b->stems[b->n] = strdup(stem)) == NULL) {
        b->status = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
        return 0;
    }
    b->n++;
    return 1;
}

/* one gnuplot process on the scripts k, k + jobs, k + 2 jobs, ... */
static pid_t start(const mb_plot_batch *b, const char *gnuplot, size_t k, size_t jobs)
{
    pid_t pid = mb_fork_whole();     /* the child allocates: mb_fork.h */
    if (pid != 0)
        return pid;
    /* gnuplot's messages go to gnuplot.log beside the plots */
    if (chdir(b->dir) != 0 || freopen("gnuplot.log", "a", stderr) == NULL)
        _exit(127);
    char **argv = calloc(b->n / jobs + 3, sizeof *argv);
    if (argv == NULL)
        _exit(127);
    size_t m = 0;
    argv[m++] = "gnuplot";
    for (size_t j = k; j < b->n; j += jobs) {
        char *script = malloc(strlen(b->stems[j]) + 4);
        if (script == NULL)
            _exit(127);
        argv[m++] = strcat(strcpy(script, b->stems[j]), ".gp");
    }
    execv(gnuplot, argv);
    _exit(127);
}

int mb_gp_draw_all(mb_plot_batch *b, const char *gnuplot)
{
    if (b->status != MB_SUCCESS || b->n == 0)
        return b->status;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t jobs = cpus < 1 ? 1 : (size_t)cpus < b->n ? (size_t)cpus : b->n;
    pid_t pid[64];
    if (jobs > 64)
        jobs = 64;
    size_t started = 0;
    for (; started < jobs; started++)
        if ((pid[started] = start(b, gnuplot, started, jobs)) < 0) {
            b->status = mb_error_record(MB_EIO, __FILE__, __LINE__, "cannot start gnuplot: "
                                        "%s", strerror(errno));
            break;
        }
    int worst = 0;
    for (size_t k = 0; k < started; k++) {
        int st;
        if (waitpid(pid[k], &st, 0) < 0 || !WIFEXITED(st))
            worst = worst ? worst : -1;
        else if (WEXITSTATUS(st) != 0 && worst == 0)
            worst = WEXITSTATUS(st);
    }
    if (worst != 0 && b->status == MB_SUCCESS)
        b->status = mb_error_record(MB_EFAILED, __FILE__, __LINE__, "gnuplot failed on the "
                                    "plots in %s (exit %d; its messages are in %s/gnuplot.log)",
                                    b->dir, worst, b->dir);
    return b->status;
}

void mb_gp_batch_free(mb_plot_batch *b)
{
    for (size_t k = 0; k < b->n; k++)
        free(b->stems[k]);
    free(b->stems);
    b->stems = NULL;
    b->n = b->cap = 0;
}
