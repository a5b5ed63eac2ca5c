// The calling thread's last error, for the calls of ploy.h that return
// no message of their own (ploy_last_error). It lives in C, in
// thread-local storage, because a Go function exported to C runs on the
// thread that called it, while goroutines have no thread of their own
// to keep it in.

#include <stdlib.h>

#include "lasterror.h"

static __thread char *last_error;

void cploy_set_error(char *message) {
	free(last_error);
	last_error = message;
}

char *cploy_take_error(void) {
	char *message = last_error;
	last_error = NULL;
	return message;
}
