/*
 * The C library's error paths, as a C program sees them: bad and
 * released handles, NULL arguments, an unknown kind, a buffer too small,
 * every message freed with ploy_free, the thread's last error kept per
 * thread, and many threads driving one world at once. bindings/c/ctest's Go
 * test builds and runs it; it prints "ok" and exits 0, or names the
 * first check that failed and exits 1.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ploy.h"

static int failures;

#define CHECK(cond, ...)                                      \
	do {                                                      \
		if (!(cond)) {                                        \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);   \
			fprintf(stderr, __VA_ARGS__);                     \
			fprintf(stderr, "\n");                            \
			failures++;                                       \
		}                                                     \
	} while (0)

/* expect checks the thread's last error says what, frees it, and checks
 * that it was cleared. */
static void expect(const char *call, const char *what) {
	char *message = ploy_last_error();
	CHECK(message != NULL && strstr(message, what) != NULL, "%s: last error %s, want one saying %s", call,
	      message ? message : "NULL", what);
	ploy_free(message);
	message = ploy_last_error();
	CHECK(message == NULL, "%s: the last error was not cleared: %s", call, message);
	ploy_free(message);
}

/* answer checks a JSON answer contains what, and frees it. */
static void answer(const char *call, char *json, const char *what) {
	CHECK(json != NULL && strstr(json, what) != NULL, "%s: %s, want one containing %s", call, json ? json : "NULL", what);
	ploy_free(json);
}

static char *battlemage;
static size_t battlemage_len;

static void *other_thread(void *arg) {
	(void)arg;
	/* Another thread's failure is not this thread's last error, nor the
	 * reverse. */
	CHECK(ploy_world_frame(987654321) == -1, "a frame on a bad handle");
	expect("frame on another thread", "no such handle 987654321");
	return NULL;
}

struct driver {
	ploy_world w;
	ploy_agent a;
	int errors;
};

static void *drive(void *arg) {
	struct driver *d = arg;
	char buf[64];
	for (int i = 0; i < 200; i++) {
		if (ploy_agent_set(d->a, "in_range", i % 2) != 0 || ploy_agent_set(d->a, "health", 50 + i % 50) != 0)
			d->errors++;
		int doing = ploy_agent_action(d->a, buf, sizeof buf);
		if (doing < 0)
			d->errors++;
		else if (doing == PLOY_ACTING && ploy_agent_report(d->a, i % 3 ? PLOY_RUNNING : PLOY_SUCCESS) != 0)
			d->errors++;
		char *ev = ploy_agent_events(d->a);
		if (ev == NULL)
			d->errors++;
		ploy_free(ev);
		if (i % 4 == 0 && ploy_world_frame(d->w) < 0)
			d->errors++;
		if (i % 50 == 0) {
			char *plan = ploy_call(1, "plan", "{\"goal\":\"Kill\"}"); /* handle 1: the first domain */
			ploy_free(plan);
		}
	}
	return NULL;
}

static char *read_all(const char *path, size_t *len) {
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

/* engine_model drives a survivor of an engine-model file: positions,
 * targets and destinations cross the boundary as doubles. */
static void engine_model(const char *path) {
	size_t len;
	char *src = read_all(path, &len);
	CHECK(src != NULL, "cannot read %s", path);
	if (src == NULL)
		return;
	char *error = NULL;
	ploy_domain d = ploy_load(src, len, path, &error);
	free(src);
	CHECK(d != 0, "%s: %s", path, error ? error : "NULL");
	if (d == 0) {
		ploy_free(error);
		return;
	}
	ploy_world w = ploy_world_new(d, 1);
	ploy_agent a = ploy_agent_new(w, "survivor", "s", NULL);
	CHECK(a != 0, "a survivor");
	CHECK(ploy_agent_set(a, "warmth", 20.5) == -1, "a key of 20.5");
	expect("ploy_agent_set 20.5", "a key holds an integer");
	CHECK(ploy_agent_set(a, "warmth", 20) == 0, "warmth 20");
	CHECK(ploy_agent_set_target(a, "wood_sout", 0, -4, 1) == -1, "an unknown target");
	expect("ploy_agent_set_target", "did you mean \"wood_south\"");
	CHECK(ploy_agent_set_position(a, 1.0 / 0.0, 0) == -1, "an infinite position");
	expect("ploy_agent_set_position", "coordinates must be finite numbers");
	char buf[64];
	int doing = PLOY_IDLE;
	for (int i = 0; i < 5 && doing != PLOY_WALKING; i++) {
		CHECK(ploy_world_frame(w) >= 0, "a frame");
		doing = ploy_agent_action(a, buf, sizeof buf);
	}
	CHECK(doing == PLOY_WALKING && strcmp(buf, "GatherWoodSouth") == 0, "the survivor walks for GatherWoodSouth: %d %s", doing, buf);
	double x = 99, y = 99;
	CHECK(ploy_agent_destination(a, &x, &y) == 1 && x == 0 && y == -4, "headed to (%g, %g), want (0, -4)", x, y);
	/* Within the stopping distance, the action starts. */
	CHECK(ploy_agent_set_position(a, 0, -3.5) == 0, "a position");
	CHECK(ploy_world_frame(w) >= 0, "a frame");
	doing = ploy_agent_action(a, buf, sizeof buf);
	CHECK(doing == PLOY_ACTING && strcmp(buf, "GatherWoodSouth") == 0, "at the pile: %d %s", doing, buf);
	CHECK(ploy_agent_destination(a, &x, &y) == 0, "no longer walking");
	answer("a survivor's state", ploy_agent_state(a), "\"at\":[0,-3.5]");
	ploy_release(d);
	ploy_release(w);
}

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: errors battlemage.yaml survivor.yaml\n");
		return 2;
	}
	battlemage = read_all(argv[1], &battlemage_len);
	if (battlemage == NULL) {
		perror(argv[1]);
		return 2;
	}
	const char *v = ploy_version();
	CHECK(v != NULL && v[0] != '\0', "ploy_version: %s", v ? v : "NULL");
	CHECK(ploy_version() == v, "ploy_version is not one static string");
	CHECK(ploy_last_error() == NULL, "a last error before any call");

	/* Loading. */
	char *error = NULL;
	ploy_domain d = ploy_load(battlemage, battlemage_len, "battlemage.yaml", &error);
	CHECK(d == 1 && error == NULL, "the first load: handle %llu, error %s", (unsigned long long)d, error ? error : "NULL");
	const char *bad = "name: x\nfacts: [a]\nactions:\n  - name: A\n    effects: {b: true}\n    cost: 1\n";
	CHECK(ploy_load(bad, strlen(bad), "mine.yaml", &error) == 0, "a bad file loaded");
	CHECK(error != NULL && strstr(error, "mine.yaml:5:15: unknown fact \"b\"") != NULL, "a bad file: %s", error ? error : "NULL");
	ploy_free(error);
	error = NULL;
	CHECK(ploy_load(bad, strlen(bad), NULL, NULL) == 0, "a bad file, no error pointer");
	expect("ploy_load with no error pointer", "<source>:5:15: unknown fact");
	CHECK(ploy_load(NULL, 10, "null.yaml", &error) == 0, "a NULL source loaded");
	CHECK(error != NULL && strstr(error, "null.yaml: the source is NULL but its length is 10") != NULL, "a NULL source: %s", error ? error : "NULL");
	ploy_free(error);
	CHECK(ploy_load(battlemage, (size_t)1 << 40, "huge.yaml", &error) == 0, "a 1 TiB source loaded");
	CHECK(error != NULL && strstr(error, "huge.yaml: the file is 1099511627776 bytes, more than the") != NULL, "a huge length: %s", error ? error : "NULL");
	ploy_free(error);
	char longname[5000];
	memset(longname, 'n', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	CHECK(ploy_load(battlemage, battlemage_len, longname, &error) == 0, "a 5000-byte name loaded");
	CHECK(error != NULL && strstr(error, "name is longer than 4096 bytes") != NULL, "a long name: %s", error ? error : "NULL");
	ploy_free(error);

	/* PDDL. */
	const char *dom = "(define (domain d) (:predicates (p) (q)) (:action a :parameters () :precondition (p) :effect (q)))";
	const char *prob = "(define (problem x) (:domain d) (:init (p)) (:goal (q)))";
	ploy_domain pd = ploy_load_pddl(dom, strlen(dom), "d.pddl", prob, strlen(prob), "p.pddl", &error);
	CHECK(pd != 0 && error == NULL, "a PDDL task: %s", error ? error : "NULL");
	answer("PDDL plan", ploy_call(pd, "plan", NULL), "\"status\":\"found\"");
	answer("PDDL resolve", ploy_call(pd, "resolve", NULL), "it answers plan");
	CHECK(ploy_world_new(pd, 1) == 0, "a world of a PDDL task");
	expect("ploy_world_new on PDDL", "is a PDDL problem");
	CHECK(ploy_load_pddl(dom, strlen(dom), NULL, "(define", 7, NULL, &error) == 0, "a bad problem loaded");
	CHECK(error != NULL && strstr(error, "<problem>:1:") != NULL, "a bad problem: %s", error ? error : "NULL");
	ploy_free(error);
	ploy_release(pd);

	/* The JSON API. */
	answer("plan Kill", ploy_call(d, "plan", "{\"goal\":\"Kill\"}"), "\"cost\":7");
	answer("a bad handle", ploy_call(424242, "plan", "{}"), "no such handle 424242");
	answer("a NULL method", ploy_call(d, NULL, "{}"), "\"error\":\"method is NULL\",\"status\":400");
	answer("an unknown method", ploy_call(d, "walk", NULL), "\"status\":404");
	answer("a NULL request", ploy_call(d, "plan", NULL), "\"status\":400");
	answer("a bad goal", ploy_call(d, "plan", "{\"goal\":\"Kil\"}"), "\"field\":\"goal\"");
	answer("methods", ploy_methods(d), "\"plan\"");
	answer("kinds", ploy_kinds(d), "[\"goap\",\"htn\",\"htn-break\",\"bt\",\"utility\"]");
	CHECK(ploy_kinds(31337) == NULL, "kinds of a bad handle");
	expect("ploy_kinds", "no such handle 31337");
	CHECK(ploy_methods(31337) == NULL, "methods of a bad handle");
	expect("ploy_methods", "no such handle 31337");
	char *big = malloc((2 << 20) + 1);
	memset(big, ' ', 2 << 20);
	big[2 << 20] = '\0';
	answer("a 2 MiB request", ploy_call(d, "plan", big), "\"status\":413");
	free(big);

	/* Worlds and agents. */
	CHECK(ploy_world_new(d, 0) == 0, "a world of no workers");
	expect("ploy_world_new", "workers must be from 1 to 64, not 0");
	CHECK(ploy_world_new(12345, 1) == 0, "a world of a bad handle");
	expect("ploy_world_new", "no such handle 12345");
	ploy_world w = ploy_world_new(d, 2);
	CHECK(w != 0, "a world");
	CHECK(ploy_world_new(w, 1) == 0, "a world of a world");
	expect("ploy_world_new of a world", "is a world, not a domain");
	CHECK(ploy_world_decisions(w) == NULL, "decisions unrecorded");
	expect("ploy_world_decisions", "records no decisions");
	CHECK(ploy_agent_new(w, "gaop", "m", &error) == 0, "an unknown kind");
	CHECK(error != NULL && strstr(error, "did you mean \"goap\"") != NULL, "an unknown kind: %s", error ? error : "NULL");
	ploy_free(error);
	CHECK(ploy_agent_new(w, NULL, "m", NULL) == 0, "a NULL kind");
	expect("ploy_agent_new", "kind is NULL");
	CHECK(ploy_agent_new(d, "goap", NULL, NULL) == 0, "an agent of a domain");
	expect("ploy_agent_new of a domain", "is a domain, not a world");
	ploy_agent a = ploy_agent_new(w, "goap", NULL, &error);
	CHECK(a != 0 && error == NULL, "an agent: %s", error ? error : "NULL");
	CHECK(ploy_world_record(w, 0, 0) == -1, "record after agents");
	expect("ploy_world_record", "call Record before adding agents");

	CHECK(ploy_agent_set(a, NULL, 1) == -1, "a NULL fact");
	expect("ploy_agent_set NULL", "fact_or_key is NULL");
	CHECK(ploy_agent_set(a, "in_rnge", 1) == -1, "an unknown fact");
	expect("ploy_agent_set", "did you mean \"in_range\"");
	CHECK(ploy_agent_set(a, "health", 0.0 / 0.0) == -1, "NaN");
	expect("ploy_agent_set NaN", "a value must be a finite number");
	CHECK(ploy_agent_set(w, "in_range", 1) == -1, "a fact on a world");
	expect("ploy_agent_set on a world", "is a world, not a");
	CHECK(ploy_agent_set_position(a, 1, 2) == -1, "a GOAP agent's position");
	expect("ploy_agent_set_position", "positions are for an engine-model file's agents");
	CHECK(ploy_agent_set_target(a, NULL, 1, 2, 1) == -1, "a NULL target key");
	expect("ploy_agent_set_target", "key is NULL");
	CHECK(ploy_agent_report(a, 7) == -1, "status 7");
	expect("ploy_agent_report 7", "status 7: report 0 (running), 1 (success) or 2 (failure)");
	CHECK(ploy_agent_report(a, PLOY_SUCCESS) == -1, "a report of no action");
	expect("ploy_agent_report idle", "runs no action");
	CHECK(ploy_agent_trace_decisions(a, 1) == -1, "trace decisions in a world that records none");
	expect("ploy_agent_trace_decisions", "records no decisions to trace");
	double x = -1, y = -1;
	CHECK(ploy_agent_destination(a, NULL, &y) == -1, "a NULL x");
	expect("ploy_agent_destination", "x or y is NULL");
	CHECK(ploy_agent_destination(a, &x, &y) == 0, "a GOAP agent walks nowhere");

	/* The action, into buffers of every size. */
	char buf[16];
	CHECK(ploy_agent_action(a, buf, sizeof buf) == PLOY_IDLE && buf[0] == '\0', "before a frame: idle, \"\"");
	CHECK(ploy_world_frame(w) >= 0, "a frame");
	CHECK(ploy_world_frame(w) >= 0, "a frame");
	memset(buf, 'X', sizeof buf);
	int doing = ploy_agent_action(a, buf, sizeof buf);
	CHECK(doing == PLOY_ACTING && strcmp(buf, "Approach") == 0, "the first action: %d %s", doing, buf);
	memset(buf, 'X', sizeof buf);
	CHECK(ploy_agent_action(a, buf, 4) == -1, "Approach in 4 bytes");
	CHECK(memcmp(buf, "App\0XXXX", 8) == 0, "Approach in 4 bytes: %.8s", buf);
	expect("ploy_agent_action 4", "the action \"Approach\" needs a buffer of 9 bytes, not 4");
	memset(buf, 'X', sizeof buf);
	CHECK(ploy_agent_action(a, buf, 9) == PLOY_ACTING && strcmp(buf, "Approach") == 0 && buf[9] == 'X', "Approach in 9 bytes");
	memset(buf, 'X', sizeof buf);
	CHECK(ploy_agent_action(a, buf, 1) == -1 && buf[0] == '\0' && buf[1] == 'X', "Approach in 1 byte");
	expect("ploy_agent_action 1", "needs a buffer of 9 bytes, not 1");
	CHECK(ploy_agent_action(a, buf, 0) == -1 && buf[0] == '\0' && buf[1] == 'X', "a buffer of 0 bytes");
	expect("ploy_agent_action 0", "needs a buffer of 9 bytes, not 0");
	CHECK(ploy_agent_action(a, NULL, 64) == -1, "a NULL buffer");
	expect("ploy_agent_action NULL", "buf is NULL");
	CHECK(ploy_agent_report(a, PLOY_SUCCESS) == 0, "a report");
	answer("events", ploy_agent_events(a), "\"kind\":\"step_started\",\"goal\":\"Kill\",\"action\":\"Approach\"");
	answer("state", ploy_agent_state(a), "\"plan\":[\"Approach\",\"TakeCover\",\"Recharge\",\"CastBolt\"]");

	/* The last error is the calling thread's own. */
	CHECK(ploy_agent_report(a, 9) == -1, "status 9");
	pthread_t t;
	pthread_create(&t, NULL, other_thread, NULL);
	pthread_join(t, NULL);
	expect("this thread's error after another thread's", "status 9");

	/* Released handles. */
	ploy_release(w);
	CHECK(ploy_agent_set(a, "in_range", 1) == -1, "an agent of a released world");
	expect("an agent of a released world", "no such handle");
	CHECK(ploy_world_frame(w) == -1, "a released world's frame");
	expect("a released world", "released, or never made");
	CHECK(ploy_agent_events(a) == NULL, "events of a released agent");
	expect("events of a released agent", "no such handle");
	ploy_release(w); /* twice: nothing */
	ploy_release(0);

	engine_model(argv[2]);

	/* Many threads on one world, each driving its agents and frames. */
	w = ploy_world_new(d, 2);
	CHECK(w != 0 && ploy_world_record(w, 100, 0) == 0, "a recorded world");
	struct driver drivers[8];
	pthread_t threads[8];
	for (int i = 0; i < 8; i++) {
		drivers[i].w = w;
		drivers[i].errors = 0;
		drivers[i].a = ploy_agent_new(w, (const char *[]){"goap", "htn", "bt", "utility"}[i % 4], NULL, NULL);
		CHECK(drivers[i].a != 0, "agent %d", i);
		pthread_create(&threads[i], NULL, drive, &drivers[i]);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(threads[i], NULL);
		CHECK(drivers[i].errors == 0, "thread %d: %d calls failed", i, drivers[i].errors);
	}
	answer("decisions", ploy_world_decisions(w), "\"domain_hash\"");
	ploy_release(w);
	ploy_release(d);
	CHECK(ploy_held() == 0, "%d handles held after releasing all", ploy_held());
	free(battlemage);
	if (failures > 0) {
		fprintf(stderr, "%d checks failed\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
