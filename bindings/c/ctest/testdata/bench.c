/*
 * The C side of the benchmarks of bindings/c/ctest (bindings/c/ctest/bench_test.go says what each
 * measures). Usage:
 *
 *     bench plan N battlemage.yaml    N plans of Kill through ploy_call
 *     bench frame N battlemage.yaml   N frames of 1000 mages
 *
 * It prints the time per plan, or per frame (ploy_world_frame alone, and
 * the whole engine loop: the facts pushed, the frame, the actions read
 * and reported), in nanoseconds, as "key value" lines.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ploy.h"

#define AGENTS 1000

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

enum { IN_RANGE, IN_COVER, STAFF_CHARGED, SPARE_CRYSTALS, CARRYING_POTION, POTION_AT_SHRINE, HEALTHY, ENEMY_DEAD, FACTS };
static const char *fact_names[FACTS] = {"in_range", "in_cover", "staff_charged", "spare_crystals",
                                        "carrying_potion", "potion_at_shrine", "healthy", "enemy_dead"};

/* A mage of the benchmark's arena: the Go arena of bench_test.go is the same. */
struct mage {
	ploy_agent agent;
	int fact[FACTS];
	int frames_on, enemy_back_in;
	char action[64];
};

/* finish applies an action's effects; every action takes two frames. */
static void finish(struct mage *m) {
	int *f = m->fact;
	const char *a = m->action;
	if (!strcmp(a, "Approach"))
		f[IN_RANGE] = 1, f[IN_COVER] = 0;
	else if (!strcmp(a, "TakeCover"))
		f[IN_COVER] = 1;
	else if (!strcmp(a, "CastBolt"))
		f[ENEMY_DEAD] = 1, f[STAFF_CHARGED] = 0, m->enemy_back_in = 20;
	else if (!strcmp(a, "Recharge"))
		f[STAFF_CHARGED] = 1, f[SPARE_CRYSTALS] = 0;
	else if (!strcmp(a, "GetCrystals"))
		f[SPARE_CRYSTALS] = 1, f[IN_COVER] = 0, f[IN_RANGE] = 0;
	else if (!strcmp(a, "FetchPotion"))
		f[CARRYING_POTION] = 1, f[POTION_AT_SHRINE] = 0, f[IN_COVER] = 0;
	else if (!strcmp(a, "DrinkPotion"))
		f[CARRYING_POTION] = 0, f[POTION_AT_SHRINE] = 1; /* the shrine refills at once */
}

int main(int argc, char **argv) {
	if (argc < 4)
		return 2;
	long n = atol(argv[2]);
	FILE *file = fopen(argv[3], "rb");
	if (file == NULL)
		return 2;
	static char src[1 << 20];
	size_t len = fread(src, 1, sizeof src, file);
	fclose(file);
	char *error = NULL;
	ploy_domain d = ploy_load(src, len, "battlemage.yaml", &error);
	if (d == 0) {
		fprintf(stderr, "%s\n", error);
		return 1;
	}
	if (!strcmp(argv[1], "plan")) {
		double start = now();
		for (long i = 0; i < n; i++) {
			char *answer = ploy_call(d, "plan", "{\"goal\":\"Kill\"}");
			if (answer == NULL || strstr(answer, "\"cost\":7") == NULL) {
				fprintf(stderr, "plan: %s\n", answer ? answer : "NULL");
				return 1;
			}
			ploy_free(answer);
		}
		printf("plan_ns %.1f\n", (now() - start) / (double)n);
		return 0;
	}
	static const char *kinds[] = {"goap", "htn", "htn-break", "bt", "utility"};
	ploy_world w = ploy_world_new(d, 2);
	static struct mage mages[AGENTS];
	for (int i = 0; i < AGENTS; i++) {
		mages[i].agent = ploy_agent_new(w, kinds[i % 5], NULL, NULL);
		mages[i].fact[SPARE_CRYSTALS] = mages[i].fact[POTION_AT_SHRINE] = mages[i].fact[HEALTHY] = 1;
	}
	double in_frame = 0, start = 0;
	long plans = 0, errors = 0;
	for (long frame = -100; frame < n; frame++) { /* 100 frames of warm-up */
		if (frame == 0)
			in_frame = 0, start = now(), plans = 0;
		for (int i = 0; i < AGENTS; i++) {
			struct mage *m = &mages[i];
			if (m->fact[ENEMY_DEAD] && --m->enemy_back_in <= 0)
				m->fact[ENEMY_DEAD] = 0, m->fact[IN_RANGE] = 0;
			for (int k = 0; k < FACTS; k++)
				errors += ploy_agent_set(m->agent, fact_names[k], m->fact[k]) != 0;
		}
		double t = now();
		int made = ploy_world_frame(w);
		in_frame += now() - t;
		errors += made < 0;
		plans += made;
		for (int i = 0; i < AGENTS; i++) {
			struct mage *m = &mages[i];
			char action[64];
			int doing = ploy_agent_action(m->agent, action, sizeof action);
			errors += doing < 0;
			if (doing != PLOY_ACTING)
				continue;
			if (strcmp(action, m->action) != 0)
				strcpy(m->action, action), m->frames_on = 0;
			int status = PLOY_RUNNING;
			if (++m->frames_on >= 2) {
				finish(m);
				m->action[0] = '\0';
				status = PLOY_SUCCESS;
			}
			errors += ploy_agent_report(m->agent, status) != 0;
		}
	}
	double total = now() - start;
	if (errors > 0) {
		char *message = ploy_last_error();
		fprintf(stderr, "%ld calls failed: %s\n", errors, message ? message : "");
		return 1;
	}
	printf("frame_ns %.1f\nloop_ns %.1f\nplans_per_frame %.2f\n", in_frame / n, total / n, (double)plans / n);
	return 0;
}
