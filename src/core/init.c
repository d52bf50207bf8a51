/* init.c -- process-wide set-up done once (mb_init.h): GSL's error handler off.
 *
 * Copyright (C) 2026 the motionbench authors.
 * This file is part of motionbench, free software: you can redistribute it and/or modify
 * it under the terms of the GNU General Public License as published by the Free Software
 * Foundation, either version 3 of the License, or (at your option) any later version.
 * motionbench is distributed WITHOUT ANY WARRANTY; see COPYING. */
#include "mb_init.h"

#include <gsl/gsl_errno.h>
#include <pthread.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_process(void)
{
    gsl_set_error_handler_off();    /* GSL errors become return statuses */
}

void mb_init(void)
{
    pthread_once(&init_once, init_process);
}
