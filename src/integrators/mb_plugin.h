/* mb_plugin.h -- steppers from shared objects: the entry point a plugin exports and the
 * loader motionbench uses (`motionbench run --plugin FILE.so`, `[run] plugins = FILE.so`).
 *
 * A plugin is a shared object built against the installed headers (pkg-config
 * motionbench) that exports two symbols:
 *
 *     const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;
 *     int mb_plugin_init(mb_plugin_registrar *r);
 *
 * The loader refuses a plugin whose mb_plugin_api_version differs from its own, then
 * calls mb_plugin_init once; the plugin registers each of its scheme types with
 * r->register_stepper(r, &type) and returns MB_SUCCESS, or the first status that was
 * not MB_SUCCESS.  The types must be static objects of the plugin: a loaded plugin stays
 * loaded for the life of the process.  doc/plugins.md documents the whole contract. */
#ifndef MB_PLUGIN_H
#define MB_PLUGIN_H

#include "mb_stepper.h"

/* Version of the plugin interface: this header, mb_stepper.h and the headers it
 * includes.  Raised whenever a change breaks a plugin built against an older version. */
#define MB_PLUGIN_API_VERSION 1

typedef struct mb_plugin_registrar mb_plugin_registrar;
struct mb_plugin_registrar {
    int api_version;           /* MB_PLUGIN_API_VERSION of the loading library */
    const char *path;          /* the shared object being loaded, for messages */
    /* mb_stepper_register with the plugin's path in the messages */
    int (*register_stepper)(mb_plugin_registrar *r, const mb_stepper_type *type);
    unsigned registered;       /* types registered so far through this registrar */
};

/* The entry point's type; the symbol is looked up as "mb_plugin_init". */
typedef int mb_plugin_init_fn(mb_plugin_registrar *r);

/* Load the shared object at path and register its types.  Loading the same file twice
 * is a no-op; a name without a slash is a file of the current directory.  Errors (message names the path): MB_EIO the file cannot be loaded;
 * MB_ENOTFOUND a symbol is missing; MB_EUNSUP the API version differs; the status of
 * mb_stepper_register for a type it refuses; MB_EFAILED mb_plugin_init failed without
 * a reason, or registered no type. */
int mb_plugin_load(const char *path);

/* 1 when type was registered by a plugin's mb_plugin_init (through its registrar), 0 for
 * a built-in type or one registered by the program itself with mb_stepper_register. */
int mb_plugin_owns(const mb_stepper_type *type);

#endif
