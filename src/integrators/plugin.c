/* plugin.c -- load scheme types from shared objects (mb_plugin.h): dlopen, check the
 * API version, call the entry point with a registrar, keep the handle for good, and
 * remember which types came from a plugin (the runner runs those in a child process).
 *
 * Copyright (C) 2026 the motionbench authors.
 * This file is part of motionbench, free software: you can redistribute it and/or modify
 * it under the terms of the GNU General Public License as published by the Free Software
 * Foundation, either version 3 of the License, or (at your option) any later version.
 * motionbench is distributed WITHOUT ANY WARRANTY; see COPYING. */
#include "mb_plugin.h"
#include "mb_status.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLUGINS 64

static void *loaded[MAX_PLUGINS];
static int loaded_status[MAX_PLUGINS];     /* what loading each one gave */
static size_t n_loaded;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
/* every type registered through a plugin's registrar; appended under load_lock and
 * published with a release store, read without the lock (as the registry is) */
static const mb_stepper_type *from_plugin[MB_STEPPER_REGISTER_MAX];
static size_t n_from_plugin;

/* index of handle among the loaded plugins, or -1 */
static long loaded_index(void *handle)
{
    for (size_t k = 0; k < n_loaded; k++)
        if (loaded[k] == handle)
            return (long)k;
    return -1;
}

static int register_from_plugin(mb_plugin_registrar *r, const mb_stepper_type *type)
{
    int st = mb_stepper_register(type);
    if (st != MB_SUCCESS) {
        char why[400];
        snprintf(why, sizeof why, "%s", mb_last_error());
        MB_ERROR(st, "plugin %s: %s", r->path, why);
    }
    if (n_from_plugin < MB_STEPPER_REGISTER_MAX) {      /* the registry holds no more */
        from_plugin[n_from_plugin] = type;
        __atomic_store_n(&n_from_plugin, n_from_plugin + 1, __ATOMIC_RELEASE);
    }
    r->registered++;
    return MB_SUCCESS;
}

static int check_version(void *handle, const char *path)
{
    const int *version = dlsym(handle, "mb_plugin_api_version");
    if (version == NULL)
        MB_ERROR(MB_ENOTFOUND, "plugin %s: no symbol mb_plugin_api_version (define "
                 "const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;)", path);
    if (*version != MB_PLUGIN_API_VERSION)
        MB_ERROR(MB_EUNSUP, "plugin %s: built for plugin API version %d, this motionbench "
                 "speaks version %d: rebuild it against these headers", path, *version,
                 MB_PLUGIN_API_VERSION);
    return MB_SUCCESS;
}

static int run_entry_point(void *handle, const char *path)
{
    mb_plugin_init_fn *init;
    *(void **)&init = dlsym(handle, "mb_plugin_init");   /* POSIX object-to-function */
    if (init == NULL)
        MB_ERROR(MB_ENOTFOUND, "plugin %s: no entry point mb_plugin_init "
                 "(int mb_plugin_init(mb_plugin_registrar *))", path);
    mb_plugin_registrar r = { MB_PLUGIN_API_VERSION, path, register_from_plugin, 0 };
    mb_clear_error();
    int st = init(&r);
    if (st != MB_SUCCESS) {
        if (mb_last_error_code() != MB_SUCCESS)
            return st;    /* the registrar (or the plugin through MB_ERROR) said why */
        MB_ERROR(st, "plugin %s: mb_plugin_init failed (%s)", path, mb_strerror(st));
    }
    if (r.registered == 0)
        MB_ERROR(MB_EFAILED, "plugin %s: mb_plugin_init registered no integrator", path);
    return MB_SUCCESS;
}

static int load_locked(const char *path)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        MB_ERROR(MB_EIO, "plugin %s: cannot load: %s", path, why ? why : "unknown reason");
    }
    long seen = loaded_index(handle);
    if (seen >= 0) {
        dlclose(handle);      /* drops the reference just taken; the first one stays */
        if (loaded_status[seen] != MB_SUCCESS)
            MB_ERROR(loaded_status[seen], "plugin %s: failed to load before", path);
        return MB_SUCCESS;
    }
    if (n_loaded == MAX_PLUGINS) {
        dlclose(handle);
        MB_ERROR(MB_ENOMEM, "plugin %s: more than %d plugins", path, MAX_PLUGINS);
    }
    int st = check_version(handle, path);
    if (st == MB_SUCCESS)
        st = run_entry_point(handle, path);
    /* kept even on failure: a type registered before the failure points into it */
    loaded[n_loaded] = handle;
    loaded_status[n_loaded++] = st;
    return st;
}

int mb_plugin_load(const char *path)
{
    if (path == NULL || path[0] == '\0')
        MB_ERROR(MB_EINVAL, "plugin: empty file name");
    /* dlopen would search the library path for a bare name: a plugin is always a file */
    char file[4096];
    snprintf(file, sizeof file, "%s%s", strchr(path, '/') ? "" : "./", path);
    pthread_mutex_lock(&load_lock);
    int st = load_locked(file);
    pthread_mutex_unlock(&load_lock);
    return st;
}

int mb_plugin_owns(const mb_stepper_type *type)
{
    size_t n = __atomic_load_n(&n_from_plugin, __ATOMIC_ACQUIRE);
    for (size_t k = 0; k < n; k++)
        if (from_plugin[k] == type)
            return 1;
    return 0;
}
