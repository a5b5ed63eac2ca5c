// Lesson 4's forward A* (a std::priority_queue over (f, node), an
// unordered_map of best g per state, float costs from function pointers),
// written out as the lesson prints it, over ploy's battle-mage domain, timed
// for comparison with BenchmarkBattleMageKill. Build and run:
//
//   g++ -O2 -std=c++20 -o /tmp/lesson4 bench/lesson4/lesson4.cpp && /tmp/lesson4
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <queue>
#include <span>
#include <unordered_map>
#include <vector>

using Facts = uint32_t;
enum : Facts { InRange = 1, InCover = 2, StaffCharged = 4, SpareCrystals = 8, CarryingPotion = 16, PotionAtShrine = 32, Healthy = 64, EnemyDead = 128 };

struct Action {
    const char* name;
    Facts pre_mask, pre_value;
    Facts eff_mask, eff_value;
    float (*cost)(Facts state);
};

static float two(Facts) { return 2; }
static float three(Facts) { return 3; }
static float coverTwoElseFour(Facts s) { return (s & InCover) ? 2 : 4; }
static float coverOneElseFour(Facts s) { return (s & InCover) ? 1 : 4; }

static const Action actions[] = {
    {"Approach", InRange, 0, InRange | InCover, InRange, two},
    {"CastBolt", InRange | StaffCharged | EnemyDead, InRange | StaffCharged, EnemyDead | StaffCharged, EnemyDead, coverTwoElseFour},
    {"TakeCover", InCover, 0, InCover, InCover, two},
    {"Recharge", SpareCrystals | StaffCharged, SpareCrystals, StaffCharged | SpareCrystals, StaffCharged, coverOneElseFour},
    {"GetCrystals", SpareCrystals, 0, SpareCrystals | InCover | InRange, SpareCrystals, three},
    {"FetchPotion", PotionAtShrine | CarryingPotion, PotionAtShrine, CarryingPotion | PotionAtShrine | InCover, CarryingPotion, three},
    {"DrinkPotion", CarryingPotion, CarryingPotion, Healthy | CarryingPotion, Healthy, coverOneElseFour},
};

std::vector<const Action*> plan(Facts start, Facts goal_mask, Facts goal_value, std::span<const Action> actions) {
    struct Node { Facts s; float g, f; int parent; const Action* via; };
    std::vector<Node> nodes{{start, 0, (float)std::popcount((start ^ goal_value) & goal_mask), -1, nullptr}};
    std::priority_queue<std::pair<float, int>, std::vector<std::pair<float, int>>, std::greater<>> open;
    std::unordered_map<Facts, float> best{{start, 0.0f}};
    open.push({nodes[0].f, 0});
    while (!open.empty()) {
        int i = open.top().second; open.pop();
        Node n = nodes[i];
        if (n.g > best[n.s]) continue;
        if ((n.s & goal_mask) == goal_value) {
            std::vector<const Action*> out;
            for (int k = i; nodes[k].via; k = nodes[k].parent) out.insert(out.begin(), nodes[k].via);
            return out;
        }
        for (const Action& a : actions) {
            if ((n.s & a.pre_mask) != a.pre_value) continue;
            Facts s = (n.s & ~a.eff_mask) | a.eff_value;
            if (s == n.s) continue;
            float g = n.g + a.cost(n.s);
            auto it = best.find(s);
            if (it != best.end() && it->second <= g) continue;
            best[s] = g;
            float h = (float)std::popcount((s ^ goal_value) & goal_mask);
            nodes.push_back({s, g, g + h, i, &a});
            open.push({g + h, (int)nodes.size() - 1});
        }
    }
    return {};
}

int main() {
    const Facts start = SpareCrystals | PotionAtShrine | Healthy;
    auto p = plan(start, EnemyDead, EnemyDead, actions);
    for (auto* a : p) std::printf("%s ", a->name);
    std::printf("\n");
    const int n = 200000;
    for (int round = 0; round < 5; round++) {
        auto t0 = std::chrono::steady_clock::now();
        size_t sink = 0;
        for (int i = 0; i < n; i++) sink += plan(start, EnemyDead, EnemyDead, actions).size();
        auto t1 = std::chrono::steady_clock::now();
        std::printf("%.0f ns/plan (%zu)\n", std::chrono::duration<double, std::nano>(t1 - t0).count() / n, sink);
    }
}
