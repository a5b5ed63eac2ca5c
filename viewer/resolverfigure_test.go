package viewer_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ploy-ai/ploy/viewer"
)

// TestDomainsDescribeEngineModels checks what figure 8 builds its editor
// from: an engine-model domain's keys with their kinds and the file's
// snapshot (survivor.yaml's initial:, at: and targets:), and nothing of
// the kind on a state-space domain.
func TestDomainsDescribeEngineModels(t *testing.T) {
	s := newServer(t, viewer.Config{})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/domains", nil))
	var got struct {
		Domains []struct {
			Name  string          `json:"name"`
			Keys  json.RawMessage `json:"keys"`
			World json.RawMessage `json:"world"`
		} `json:"domains"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"survivor.yaml": {`[{"name":"warmth","kind":"int"},{"name":"hunger","kind":"int"},{"name":"has_wood","kind":"bool"},{"name":"fire_lit","kind":"bool"},{"name":"has_food","kind":"bool"}]`,
			`{"values":{"fire_lit":0,"has_food":0,"has_wood":0,"hunger":70,"warmth":20},"at":[0,0],"targets":{"berries":[5,0],"deer":[2,0],"fireplace":[0,2],"wood_north":[0,10],"wood_south":[0,-4]},"actions":["GatherWoodNorth","GatherWoodSouth","LightFire","WarmUp","Forage","Hunt","Eat"]}`},
		"shopkeeper.yaml": {`[{"name":"customer_served","kind":"bool"},{"name":"holding_item","kind":"bool"},{"name":"can_reach_item","kind":"bool"},{"name":"has_ladder","kind":"bool"}]`,
			`{"values":{"can_reach_item":0,"customer_served":0,"has_ladder":0,"holding_item":0},"at":[0,0],"targets":{"counter":[0,0],"item":[4,0],"ladder":[4,3]},"actions":["HandOver","TakeItem","PlaceLadder","FetchLadder"]}`},
		"colony.yaml": {`[{"name":"hunger","kind":"int"},{"name":"thirst","kind":"int"},{"name":"fatigue","kind":"int"},{"name":"fear","kind":"int"},{"name":"wood_stock","kind":"int"},{"name":"food_stock","kind":"int"},{"name":"carrying_wood","kind":"bool"},{"name":"carrying_food","kind":"bool"},{"name":"has_meal","kind":"bool"},{"name":"armed","kind":"bool"},{"name":"on_watch","kind":"bool"},{"name":"threat","kind":"bool"}]`,
			`{"values":{"armed":0,"carrying_food":0,"carrying_wood":0,"fatigue":20,"fear":0,"food_stock":0,"has_meal":0,"hunger":60,"on_watch":0,"thirst":20,"threat":0,"wood_stock":40},"at":[0,0],"targets":{"armory":[6,-4],"beds":[-8,6],"berries":[15,25],"game":[20,-25],"raiders":[-30,-25],"refuge":[-4,-10],"stockpile":[0,0],"tower":[35,35],"trees":[30,20],"well":[12,10]},"actions":["ChopWood","HaulWood","PickBerries","Hunt","HaulFood","TakeMeal","Eat","Drink","Sleep","Hide","ArmUp","Fight","KeepWatch"]}`},
	}
	for _, d := range got.Domains {
		w, ok := want[d.Name]
		if !ok {
			if d.Keys != nil || d.World != nil {
				t.Errorf("%s: keys %s, world %s; want neither on a state-space domain", d.Name, d.Keys, d.World)
			}
			continue
		}
		if string(d.Keys) != w[0] || string(d.World) != w[1] {
			t.Errorf("%s:\nkeys  %s\nworld %s\nwant\n      %s\n      %s", d.Name, d.Keys, d.World, w[0], w[1])
		}
	}
}
