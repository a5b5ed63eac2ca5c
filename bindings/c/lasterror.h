// Internal to the library: see lasterror.c. Not part of ploy.h's API.
#ifndef CPLOY_LASTERROR_H
#define CPLOY_LASTERROR_H

// cploy_set_error makes message (malloc'd; the library now owns it) the
// calling thread's last error, freeing the one before.
__attribute__((visibility("hidden"))) void cploy_set_error(char *message);

// cploy_take_error returns the calling thread's last error (the caller
// frees it) and clears it; NULL if there is none.
__attribute__((visibility("hidden"))) char *cploy_take_error(void);

#endif
