/* cancel.c -- the cancellation flag polled by long loops (mb_cancel.h). */
#include "mb_cancel.h"
#include "mb_status.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t requested = 0;
static volatile sig_atomic_t by_signal = 0;

int mb_cancel_requested(void) { return requested != 0; }
int mb_cancel_signal(void) { return by_signal; }

void mb_cancel_request(int signal_number)
{
    by_signal = signal_number;
    requested = 1;
}

void mb_cancel_reset(void)
{
    requested = 0;
    by_signal = 0;
}

static void on_signal(int sig)
{
    mb_cancel_request(sig);
}

void mb_cancel_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

void mb_cancel_hold(int hold)
{
    static sigset_t before;
    if (hold) {
        sigset_t block;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigaddset(&block, SIGHUP);
        sigprocmask(SIG_BLOCK, &block, &before);
    } else {
        sigprocmask(SIG_SETMASK, &before, NULL);
    }
}

int mb_cancel_error(void)
{
    MB_ERROR(MB_EFAILED, "interrupted");
}
