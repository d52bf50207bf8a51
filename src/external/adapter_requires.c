/* adapter_requires.c -- what a descriptor's `requires` names, checked before a run
 * (doc/external.md, section 1).
 *
 * An entry is a program (`lmp`: it must be an executable on PATH, or at the path given)
 * or an interpreter and a module (`python3:siconos`, `/usr/bin/python3:yade.wrapper`):
 * the interpreter must be found as a program is, and `INTERPRETER -c "import MODULE"`
 * must succeed within IMPORT_LIMIT seconds.  The second form exists because the python3
 * first on PATH (a virtual environment, a version manager's shim) often lacks the module
 * that the distribution's package installed for another interpreter: the run is then
 * skipped with that reason instead of failing on a traceback inside the adapter.  The
 * module name is checked when the descriptor is read (mb_adapter_requirement_valid), so
 * nothing but a dotted Python name reaches the interpreter's command line. */
#define _GNU_SOURCE    /* pipe2 */
#include "mb_external.h"
#include "mb_clock.h"
#include "mb_fork.h"
#include "mb_text.h"

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define IMPORT_LIMIT 60.0    /* seconds for `INTERPRETER -c "import MODULE"` */

/* A dotted Python name: identifiers of letters, digits and '_' (not starting with a digit)
 * joined by single dots. */
static int python_name(const char *m)
{
    int start = 1;
    if (*m == '\0')
        return 0;
    for (; *m; m++) {
        if (*m == '.') {
            if (start)
                return 0;
            start = 1;
        } else if (isalpha((unsigned char)*m) || *m == '_' || (!start && isdigit((unsigned char)*m))) {
            start = 0;
        } else {
            return 0;
        }
    }
    return !start;
}

int mb_adapter_requirement_valid(const char *entry)
{
    const char *colon = strchr(entry, ':');
    if (colon == NULL)
        return entry[0] != '\0';
    return colon > entry && python_name(colon + 1);
}

/* The last non-empty line of text, blanks and control characters made spaces. */
static void last_line(char *text, size_t n, char *out, size_t size)
{
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    text[n] = '\0';
    const char *line = strrchr(text, '\n'), *from = line ? line + 1 : text;
    mb_text_format(out, size, "%s", from);   /* a longer line is cut, marked */
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 32)
            *p = ' ';
}

/* Run `interp -c "import module"`: 1 when it succeeds; else 0 with its last line of
 * output (or the limit) in why. */
static int imports(const char *interp, const char *module, char *why, size_t size)
{
    char code[300];
    snprintf(code, sizeof code, "import %s", module);
    char *argv[] = { (char *)interp, "-c", code, NULL };
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return mb_text_format(why, size, "cannot start it"), 0;
    pid_t pid = mb_fork_bare();
    if (pid == 0) {                    /* async-signal-safe calls only until execv */
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        setpgid(0, 0);
        execv(interp, argv);
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return mb_text_format(why, size, "cannot start it"), 0;
    }
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    char out[4096];
    size_t n = 0;
    int ws = 0, done = 0;
    double deadline = mb_wall_seconds() + IMPORT_LIMIT;
    while (!done && mb_wall_seconds() < deadline) {
        ssize_t r = read(fds[0], out + n, sizeof out - 1 - n);
        if (r > 0 && (n += (size_t)r) == sizeof out - 1)
            n = 0;                     /* keep reading: only the end matters */
        done = waitpid(pid, &ws, WNOHANG) == pid;
        if (!done && r <= 0) {
            struct timespec ms = { 0, 2000000L };
            nanosleep(&ms, NULL);
        }
    }
    ssize_t r;
    while (done && n < sizeof out - 1 && (r = read(fds[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)r;
    close(fds[0]);
    if (!done) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        waitpid(pid, &ws, 0);
        return mb_text_format(why, size, "'import %s' did not finish within %g s", module,
                              IMPORT_LIMIT), 0;
    }
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
        return 1;
    char line[200];
    last_line(out, n, line, sizeof line);
    mb_text_format(why, size, "%s", line[0] ? line : "(it printed nothing)");
    return 0;
}

int mb_adapter_check_requirements(const mb_adapter *a, char *why, size_t size)
{
    for (size_t k = 0; k < a->n_requires; k++) {
        const char *entry = a->requires[k], *colon = strchr(entry, ':');
        char prog[4096], full[4096], detail[220];
        snprintf(prog, sizeof prog, "%.*s", colon ? (int)(colon - entry) : (int)strlen(entry),
                 entry);
        if (!mb_find_on_path(prog, full, sizeof full)) {
            if (colon)
                mb_text_format(why, size, "requires %s, but %s is not found on PATH", entry, prog);
            else
                mb_text_format(why, size, "requires %s, not found on PATH", entry);
            return 0;
        }
        if (colon && !imports(full, colon + 1, detail, sizeof detail)) {
            mb_text_format(why, size, "requires %s: %s cannot import %s (%s)", entry, full,
                           colon + 1, detail);
            return 0;
        }
    }
    return 1;
}
