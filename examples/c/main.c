/*
 * A game written in C that plans with ploy through its C library
 * (bindings/c/ploy.h; docs/bindings.md). It loads the battle mage's file,
 * plans Kill through the JSON API, then runs a hundred mages of the
 * file's five kinds (goap, htn, htn-break, bt, utility) against a tiny
 * arena written here: every mage has an enemy that hurts it while it
 * stands in range out of cover and comes back a while after it is
 * killed, a shrine whose potion comes back after it is taken, and
 * actions that take a few frames. The arena's sensors push every fact
 * and the mage's health each frame; its behaviours run the actions the
 * agents ask for and report them.
 *
 * Build the library and this program from the repository's root:
 *
 *     go build -buildmode=c-shared -o libploy.so ./bindings/c
 *     cc -std=c99 -Wall -Wextra -O2 -Ibindings/c -o battle examples/c/main.c -L. -lploy -Wl,-rpath,'$ORIGIN'
 *     ./battle domains/battlemage.yaml
 *
 * (or `make -C examples/c run`). It exits 1 if any call fails, Kill does
 * not cost 7, or a kind never kills.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ploy.h"

#define MAGES 100
#define FRAMES 300
#define KINDS 5

static const char *kinds[KINDS] = {"goap", "htn", "htn-break", "bt", "utility"};

enum { IN_RANGE, IN_COVER, STAFF_CHARGED, SPARE_CRYSTALS, CARRYING_POTION, POTION_AT_SHRINE, HEALTHY, ENEMY_DEAD, FACTS };
static const char *fact_names[FACTS] = {"in_range", "in_cover", "staff_charged", "spare_crystals",
                                        "carrying_potion", "potion_at_shrine", "healthy", "enemy_dead"};

/* A mage as the arena sees it. */
struct mage {
	ploy_agent agent;
	int kind;
	int fact[FACTS];
	double health;
	char action[64]; /* the action it runs, and for how many frames */
	int frames_on;
	int enemy_back_in; /* frames until a dead enemy comes back */
	int potion_back_in;
};

static int failures; /* calls that failed: the program exits 1 if any did */

static void fail(const char *what) {
	char *message = ploy_last_error();
	fprintf(stderr, "%s: %s\n", what, message ? message : "(no message)");
	ploy_free(message);
	failures++;
}

/* finish applies a finished action to the arena: true if it succeeded. */
static int finish(struct mage *m, int *kills) {
	int *f = m->fact;
	if (strcmp(m->action, "Approach") == 0) {
		f[IN_RANGE] = 1, f[IN_COVER] = 0;
	} else if (strcmp(m->action, "TakeCover") == 0) {
		f[IN_COVER] = 1;
	} else if (strcmp(m->action, "CastBolt") == 0) {
		if (!f[IN_RANGE] || !f[STAFF_CHARGED] || f[ENEMY_DEAD])
			return 0;
		f[ENEMY_DEAD] = 1, f[STAFF_CHARGED] = 0;
		m->enemy_back_in = 20 + (int)(m->agent % 7);
		(*kills)++;
	} else if (strcmp(m->action, "Recharge") == 0) {
		if (!f[SPARE_CRYSTALS])
			return 0;
		f[STAFF_CHARGED] = 1, f[SPARE_CRYSTALS] = 0;
	} else if (strcmp(m->action, "GetCrystals") == 0) {
		f[SPARE_CRYSTALS] = 1, f[IN_COVER] = 0, f[IN_RANGE] = 0;
	} else if (strcmp(m->action, "FetchPotion") == 0) {
		if (!f[POTION_AT_SHRINE])
			return 0;
		f[CARRYING_POTION] = 1, f[POTION_AT_SHRINE] = 0, f[IN_COVER] = 0;
		m->potion_back_in = 60;
	} else if (strcmp(m->action, "DrinkPotion") == 0) {
		if (!f[CARRYING_POTION])
			return 0;
		m->health = 100, f[CARRYING_POTION] = 0;
	} else {
		fprintf(stderr, "the arena has no action %s\n", m->action);
		failures++;
		return 0;
	}
	return 1;
}

/* plan_kill plans Kill through the JSON API and checks its cost. */
static int plan_kill(ploy_domain d) {
	char *answer = ploy_call(d, "plan", "{\"goal\": \"Kill\"}");
	if (answer == NULL) {
		fprintf(stderr, "plan: out of memory\n");
		return 0;
	}
	printf("plan Kill: %s", answer);
	const char *cost = strstr(answer, "\"cost\":");
	int ok = cost != NULL && atoi(cost + strlen("\"cost\":")) == 7 && strstr(answer, "\"status\":\"found\"") != NULL;
	if (!ok)
		fprintf(stderr, "plan Kill: want status found and cost 7\n");
	ploy_free(answer);
	return ok;
}

static char *read_file(const char *path, size_t *len) {
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap && cap <= (8u << 20)) { /* the library takes 8 MiB at most, and says so past it */
			char *bigger = realloc(buf, cap *= 2);
			if (bigger == NULL)
				free(buf);
			buf = bigger;
		} else if (n == cap) {
			break;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv) {
	const char *path = argc > 1 ? argv[1] : "domains/battlemage.yaml";
	printf("ploy %s\n", ploy_version());
	size_t len;
	char *source = read_file(path, &len);
	if (source == NULL) {
		perror(path);
		return 1;
	}
	char *error = NULL;
	ploy_domain d = ploy_load(source, len, path, &error);
	free(source);
	if (d == 0) {
		fprintf(stderr, "%s\n", error);
		ploy_free(error);
		return 1;
	}
	if (!plan_kill(d))
		return 1;

	ploy_world w = ploy_world_new(d, 2);
	if (w == 0) {
		fail("world");
		return 1;
	}
	if (ploy_world_record(w, 0, 0) != 0)
		fail("record");

	static struct mage mages[MAGES];
	for (int i = 0; i < MAGES; i++) {
		struct mage *m = &mages[i];
		m->kind = i % KINDS;
		m->agent = ploy_agent_new(w, kinds[m->kind], NULL, &error);
		if (m->agent == 0) {
			fprintf(stderr, "agent %s: %s\n", kinds[m->kind], error);
			ploy_free(error);
			return 1;
		}
		m->fact[SPARE_CRYSTALS] = m->fact[POTION_AT_SHRINE] = m->fact[HEALTHY] = 1; /* the file's initial facts */
		m->health = 100;
	}

	int kills[KINDS] = {0}, done[KINDS] = {0}, failed[KINDS] = {0}, plans = 0;
	for (int frame = 0; frame < FRAMES; frame++) {
		/* The arena moves on, and the sensors push what it is now. */
		for (int i = 0; i < MAGES; i++) {
			struct mage *m = &mages[i];
			int *f = m->fact;
			if (!f[ENEMY_DEAD] && f[IN_RANGE] && !f[IN_COVER])
				m->health = m->health > 3 ? m->health - 3 : 0;
			if (f[ENEMY_DEAD] && --m->enemy_back_in <= 0)
				f[ENEMY_DEAD] = 0, f[IN_RANGE] = 0; /* a new enemy, out of range */
			if (!f[POTION_AT_SHRINE] && --m->potion_back_in <= 0)
				f[POTION_AT_SHRINE] = 1;
			f[HEALTHY] = m->health >= 60;
			for (int k = 0; k < FACTS; k++)
				if (ploy_agent_set(m->agent, fact_names[k], f[k]) != 0)
					fail(fact_names[k]);
			if (ploy_agent_set(m->agent, "health", m->health) != 0)
				fail("health");
		}
		int made = ploy_world_frame(w);
		if (made < 0) {
			fail("frame");
			break;
		}
		plans += made;
		/* The behaviours: an action takes 2 to 4 frames. */
		for (int i = 0; i < MAGES; i++) {
			struct mage *m = &mages[i];
			char action[64];
			int doing = ploy_agent_action(m->agent, action, sizeof action);
			if (doing < 0) {
				fail("action");
				continue;
			}
			if (doing != PLOY_ACTING) {
				m->action[0] = '\0';
				continue;
			}
			if (strcmp(action, m->action) != 0) {
				strcpy(m->action, action);
				m->frames_on = 0;
			}
			int status = PLOY_RUNNING;
			if (++m->frames_on >= 2 + i % 3) {
				status = finish(m, &kills[m->kind]) ? PLOY_SUCCESS : PLOY_FAILURE;
				if (status == PLOY_SUCCESS)
					done[m->kind]++;
				else
					failed[m->kind]++;
				m->action[0] = '\0';
			}
			if (ploy_agent_report(m->agent, status) != 0)
				fail("report");
		}
	}

	char *events = ploy_agent_events(mages[0].agent);
	char *state = ploy_agent_state(mages[0].agent);
	char *decisions = ploy_world_decisions(w);
	if (events == NULL || state == NULL || decisions == NULL)
		fail("events, state or decisions");
	int records = 0;
	for (const char *p = decisions; p != NULL && *p; p++)
		records += *p == '\n';
	printf("%d mages, %d frames, %d plans made, %d decisions recorded\n", MAGES, FRAMES, plans, records > 0 ? records - 1 : 0);
	if (state != NULL)
		printf("%s: %s\n", kinds[mages[0].kind], state);
	printf("%-10s %6s %8s %7s\n", "kind", "kills", "actions", "failed");
	int never = 0;
	for (int k = 0; k < KINDS; k++) {
		printf("%-10s %6d %8d %7d\n", kinds[k], kills[k], done[k], failed[k]);
		if (kills[k] == 0) {
			fprintf(stderr, "%s never killed\n", kinds[k]);
			never++;
		}
	}
	ploy_free(events);
	ploy_free(state);
	ploy_free(decisions);
	ploy_release(w);
	ploy_release(d);
	if (ploy_held() != 0) {
		fprintf(stderr, "%d handles still held\n", ploy_held());
		failures++;
	}
	if (failures > 0 || never > 0) {
		fprintf(stderr, "%d calls failed\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
