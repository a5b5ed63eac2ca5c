/*
 * The C library opened at run time with dlopen, as C# (P/Invoke), Unity,
 * Godot and Python's ctypes open it: plans Kill and reads a thread's last
 * error through symbols looked up by name. Prints "ok", or what failed.
 * Usage: dlopen LIBPLOY.so battlemage.yaml
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	if (argc < 3)
		return 2;
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	uint64_t (*load)(const char *, size_t, const char *, char **) = (uint64_t(*)(const char *, size_t, const char *, char **))dlsym(lib, "ploy_load");
	char *(*call)(uint64_t, const char *, const char *) = (char *(*)(uint64_t, const char *, const char *))dlsym(lib, "ploy_call");
	uint64_t (*world_new)(uint64_t, int) = (uint64_t(*)(uint64_t, int))dlsym(lib, "ploy_world_new");
	char *(*last_error)(void) = (char *(*)(void))dlsym(lib, "ploy_last_error");
	void (*release)(uint64_t) = (void (*)(uint64_t))dlsym(lib, "ploy_release");
	void (*ploy_free)(void *) = (void (*)(void *))dlsym(lib, "ploy_free");
	if (!load || !call || !world_new || !last_error || !release || !ploy_free) {
		fprintf(stderr, "dlsym: a function is missing\n");
		return 1;
	}
	FILE *f = fopen(argv[2], "rb");
	if (f == NULL)
		return 1;
	static char src[1 << 20];
	size_t n = fread(src, 1, sizeof src, f);
	fclose(f);
	char *error = NULL;
	uint64_t d = load(src, n, argv[2], &error);
	if (d == 0) {
		fprintf(stderr, "load: %s\n", error);
		return 1;
	}
	char *answer = call(d, "plan", "{\"goal\":\"Kill\"}");
	int ok = answer != NULL && strstr(answer, "\"cost\":7") != NULL;
	printf("%s", answer ? answer : "NULL\n");
	ploy_free(answer);
	if (world_new(d, 0) != 0)
		ok = 0;
	char *message = last_error();
	if (message == NULL || strstr(message, "workers must be") == NULL)
		ok = 0;
	printf("last error: %s\n", message ? message : "NULL");
	ploy_free(message);
	release(d);
	if (!ok) {
		fprintf(stderr, "dlopen: a check failed\n");
		return 1;
	}
	printf("ok\n");
	return 0;
}
