/*
 * agent.c — makes an agent from a spec and lets it choose a move in a
 * position given as move text played from the start.
 *
 *   agent [GAME [SPEC [MOVE...]]]    e.g. agent tictacdoh mcts:iters=2000 L@0,0
 *
 * SPEC is any agent spec (docs/ai.md): "random", "greedy",
 * "alphabeta:depth=4", "mcts:iters=1000", or a level: easy, medium, hard, max.
 */
#include <stdio.h>

#include <pips/agent.h>

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "tictacdoh";
    const char *spec = argc > 2 ? argv[2] : "mcts:iters=2000";
    pips_error err;
    pips_game *g = pips_game_new(name, NULL, 0, NULL, &err);
    void *state = g ? pips_state_new(g, &err) : NULL;
    pips_agent *agent = state ? pips_agent_new(g, spec, 42, &err) : NULL;
    int status = 1;
    if (!agent)
        goto done;
    for (int i = 3; i < argc; i++)
        if (!pips_play_text(g, state, argv[i], &err)) {
            pips_error_prefix(&err, "move %d: ", i - 2);
            goto done;
        }
    pips_move m;
    if (!pips_agent_choose(agent, state, &m, &err))
        goto done;
    char text[PIPS_MOVE_TEXT_MAX];
    g->def->move_to_text(g, state, m, text);
    double value;
    if (pips_agent_last_value(agent, &value))
        printf("%s plays %s (value %.3f for the mover)\n", pips_agent_spec(agent), text, value);
    else
        printf("%s plays %s\n", pips_agent_spec(agent), text);
    status = 0;
done:
    if (status)
        fprintf(stderr, "agent: %s\n", err.msg);
    pips_agent_free(agent);
    pips_state_free(g, state);
    pips_game_free(g);
    return status;
}
