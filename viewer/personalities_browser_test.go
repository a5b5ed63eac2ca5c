package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// personalitiesFigure is what figure 6 shows, read from the page.
type personalitiesFigure struct {
	Seq   int    `json:"seq"`
	None  string `json:"none"` // the no-personalities line, when shown
	Error string `json:"error"`
	Sides []struct {
		Name    string   `json:"name"`
		Chosen  string   `json:"chosen"`
		Badge   string   `json:"badge"`
		Summary string   `json:"summary"`
		Plan    []string `json:"plan"`
		Goals   []string `json:"goals"`
		Changed []string `json:"changed"` // the costs marked as changed
	} `json:"sides"`
	Compared string `json:"compared"`
	Compare  []struct {
		Name    string   `json:"name"`
		Summary string   `json:"summary"`
		Plan    []string `json:"plan"`
	} `json:"compare"`
}

const readPersonalities = `(() => {
	const f = document.getElementById('personalities-figure');
	const texts = (root, sel) => [...root.querySelectorAll(sel)].map((e) => e.textContent);
	const none = document.getElementById('personalities-none');
	return {
		seq: Number(f.dataset.seq), compared: f.dataset.compared || '',
		none: none.hidden ? '' : none.textContent,
		error: document.getElementById('personalities-error').textContent,
		sides: [...document.querySelectorAll('#personalities-sides .side')].map((s) => ({
			name: s.dataset.personality, chosen: s.dataset.chosen,
			badge: s.querySelector('.badge').textContent,
			summary: s.querySelector('.personality-plan').textContent,
			plan: texts(s, '.plan .action'),
			goals: texts(s, '.personality-goals li'),
			changed: texts(s, '.personality-costs li.changed'),
		})),
		compare: [...document.querySelectorAll('#personalities-compare .side')].map((s) => ({
			name: s.dataset.personality, summary: s.querySelector('.took').textContent, plan: texts(s, '.plan .action'),
		})),
	};
})()`

// newPersonalities runs act and waits for figure 6 to show an answer
// newer than seq.
func newPersonalities(t *testing.T, tab context.Context, seq int, what string, act chromedp.Action[chromedp.Void]) personalitiesFigure {
	t.Helper()
	waitAnswer(t, tab, "personalities-figure", seq, what, act)
	return readFigure6(t, tab)
}

func readFigure6(t *testing.T, tab context.Context) personalitiesFigure {
	t.Helper()
	return browser.Read[personalitiesFigure](t, tab, "figure 6", readPersonalities)
}

// wantPersonalities checks figure 6 against the personalities API's answer
// for the soldier's start state with unset facts off, and each side's plan
// for the compared goal against the plan API with the personality.
func wantPersonalities(t *testing.T, server string, f personalitiesFigure, name string, set []string, unset ...string) {
	t.Helper()
	state := fmt.Sprintf(`"domain": "soldier.yaml", "set": %s, "unset": %s`, mustJSON(append([]string{}, set...)), mustJSON(append([]string{}, unset...)))
	var a personalitiesJSON
	if code, body := postTo(t, server, "/api/v1/personalities", "{"+state+"}"); code != 200 || json.Unmarshal(body, &a) != nil {
		t.Fatalf("%s: the personalities API: %d %s", name, code, body)
	}
	if f.Error != "" || len(f.Sides) != len(a.Personalities) {
		t.Fatalf("%s: figure 6 shows %d sides, error %q; the API has %d personalities", name, len(f.Sides), f.Error, len(a.Personalities))
	}
	for i, p := range a.Personalities {
		side := f.Sides[i]
		if side.Name != p.Name || side.Chosen != p.Chosen || len(side.Goals) != len(p.Goals) {
			t.Errorf("%s: side %d shows %s choosing %q, %d goals; the API: %s chooses %q, %d goals", name, i, side.Name, side.Chosen, len(side.Goals), p.Name, p.Chosen, len(p.Goals))
			continue
		}
		for j, g := range p.Goals {
			var pl personalityPlan
			json.Unmarshal(g.Plan, &pl)
			if !strings.HasPrefix(side.Goals[j], fmt.Sprintf("%s priority %g · ", g.Goal, g.Priority)) {
				t.Errorf("%s: %s's goal %d shows %q, want %s priority %g", name, p.Name, j, side.Goals[j], g.Goal, g.Priority)
			}
			if g.Goal == p.Chosen {
				want := fmt.Sprintf("%s: %d steps · cost %g", g.Goal, len(pl.Plan), pl.Cost)
				if len(pl.Plan) == 1 {
					want = fmt.Sprintf("%s: 1 step · cost %g", g.Goal, pl.Cost)
				}
				if side.Summary != want || !slices.Equal(side.Plan, pl.Plan) || side.Badge != "pursues "+g.Goal {
					t.Errorf("%s: %s shows %q %q %q; the API plans %q at cost %g", name, p.Name, side.Badge, side.Summary, side.Plan, pl.Plan, pl.Cost)
				}
			}
		}
		if p.Chosen == "" && side.Badge != "idles" {
			t.Errorf("%s: %s's badge %q, want idles", name, p.Name, side.Badge)
		}
		// The compared goal, each side's plan for it, as the plan API
		// gives it with the personality.
		if i < len(f.Compare) {
			var pl personalityPlan
			_, body := postTo(t, server, "/api/v1/plan", fmt.Sprintf(`{%s, "goal": %q, "personality": %q}`, state, f.Compared, p.Name))
			json.Unmarshal(body, &pl)
			if c := f.Compare[i]; c.Name != p.Name || !slices.Equal(c.Plan, pl.Plan) || (pl.Status == "found" && !strings.HasSuffix(c.Summary, fmt.Sprintf("cost %g", pl.Cost))) {
				t.Errorf("%s: %s for %s shows %q %q; the plan API: %q cost %g", name, c.Name, f.Compared, c.Summary, c.Plan, pl.Plan, pl.Cost)
			}
		}
	}
}

// TestBrowserPersonalities drives figure 6: the offensive and the
// defensive soldier on figure 1's state. By default the offensive one
// pursues KillPlayer with the gun (cost 9), the defensive one GetSafe
// (TakeCover, cost 1); on the same goal KillPlayer the defensive one
// takes the axe (cost 10). Figure 1's toggles change both sides.
func TestBrowserPersonalities(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 20*time.Second)

	f := newPersonalities(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	if len(f.Sides) != 1 || f.Sides[0].Name != "goap" || f.Sides[0].Chosen != "Kill" || f.Sides[0].Summary != "Kill: 4 steps · cost 7" {
		t.Errorf("the battle mage: figure 6 shows %+v, want its one GOAP agent pursuing Kill at cost 7", f.Sides)
	}

	f = newPersonalities(t, tab, f.Seq, "the soldier", choose("domain", "soldier.yaml"))
	wantPersonalities(t, ts.URL, f, "default", nil)
	if len(f.Sides) != 2 || f.Sides[0].Chosen != "KillPlayer" || f.Sides[1].Chosen != "GetSafe" ||
		f.Sides[0].Summary != "KillPlayer: 3 steps · cost 9" || f.Sides[1].Summary != "GetSafe: 1 step · cost 1" {
		t.Fatalf("default: %+v; want offensive KillPlayer cost 9, defensive GetSafe cost 1", f.Sides)
	}
	if !slices.Equal(f.Sides[1].Changed, []string{"AttackRanged 5", "TakeCover 1"}) || len(f.Sides[0].Changed) != 0 {
		t.Errorf("default: changed costs %q and %q; want none and AttackRanged 5, TakeCover 1", f.Sides[0].Changed, f.Sides[1].Changed)
	}
	// Same graph, different plans: KillPlayer, figure 1's goal.
	if f.Compared != "KillPlayer" || len(f.Compare) != 2 ||
		!slices.Equal(f.Compare[0].Plan, []string{"PickUpGun", "ApproachPlayer", "AttackRanged"}) || f.Compare[0].Summary != "3 steps · cost 9" ||
		!slices.Equal(f.Compare[1].Plan, []string{"PickUpAxe", "ApproachPlayer", "AttackMelee"}) || f.Compare[1].Summary != "3 steps · cost 10" {
		t.Errorf("default: compared %s: %+v; want the gun at cost 9 and the axe at cost 10", f.Compared, f.Compare)
	}
	browser.Screenshot(t, tab, "personalities-figure", "personalities-default")

	// In cover: GetSafe holds, both go for the kill, each its own way.
	f = newPersonalities(t, tab, f.Seq, "at_cover on", toggle("at_cover"))
	wantPersonalities(t, ts.URL, f, "at_cover on", []string{"at_cover"})
	if f.Sides[0].Chosen != "KillPlayer" || f.Sides[1].Chosen != "KillPlayer" || !strings.Contains(f.Sides[1].Goals[0], "met already") {
		t.Errorf("at_cover on: %+v; want both on KillPlayer, GetSafe met", f.Sides)
	}
	f = newPersonalities(t, tab, f.Seq, "at_cover off", toggle("at_cover"))

	// No weapons: no plan to kill; both take cover.
	f = newPersonalities(t, tab, f.Seq, "gun_nearby off", toggle("gun_nearby"))
	f = newPersonalities(t, tab, f.Seq, "axe_nearby off", toggle("axe_nearby"))
	wantPersonalities(t, ts.URL, f, "both weapons off", nil, "axe_nearby", "gun_nearby")
	if f.Sides[0].Chosen != "GetSafe" || f.Sides[1].Chosen != "GetSafe" || f.Compare[0].Summary != "no plan" {
		t.Errorf("both weapons off: %+v %+v; want both on GetSafe, no plan to kill", f.Sides, f.Compare)
	}

	// Picking the compared goal in the figure: GetSafe, each at its own
	// TakeCover cost.
	if err := chromedp.Do(tab, choose("personalities-goal", "GetSafe")); err != nil {
		t.Fatal(err)
	}
	f = readFigure6(t, tab)
	wantPersonalities(t, ts.URL, f, "GetSafe compared", nil, "axe_nearby", "gun_nearby")
	if f.Compared != "GetSafe" || f.Compare[0].Summary != "1 step · cost 2" || f.Compare[1].Summary != "1 step · cost 1" {
		t.Errorf("GetSafe compared: %+v; want TakeCover at 2 and at 1", f.Compare)
	}
}
