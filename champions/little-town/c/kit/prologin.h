/* The API of Little Town (protocol-little-town.md), C kit.
 *
 * A champion defines the callbacks init_game(), jouer() and end_game(); the kit
 * (prologin_kit.c, which provides main()) speaks the protocol with the referee on the
 * process's first descriptors and moves stdout to stderr, so printf() goes to the log.
 *
 * In jouer the champion takes exactly one action (agir, collect or build): the action
 * ends the turn (the referee answers nothing), and an action the rules refuse excludes
 * the player (rule 15 of docs/rules-little-town.md): ask legal() when in doubt. A jouer
 * that returns without an action is a fault too.
 */
#ifndef PROLOGIN_LITTLE_TOWN_H
#define PROLOGIN_LITTLE_TOWN_H

/* Contents of a position (etat_t.content), as the `etat` line writes them. */
#define INVALID -1
#define FREE 0
#define CORN 1
#define FISH 2
#define WOOD 3
#define STONE 4
#define FARM 5
#define SAWMILL 6
#define PONTOON 7
#define QUARRY 8
/* With the powers (option powers=on, rule 22). */
#define CATHEDRAL 9
#define CASTLE 10
#define WATCHTOWER 11
#define MARKET 12
/* A player's status (player_t.status). */
#define IN 0
#define ELIMINATED 1
#define EXCLUDED 2

#define MAX_SIDE 16
#define MAX_PLAYERS 4

typedef struct {
    int corn, fish, wood, stone, gold;
    int free_workers, buildings, status;
} player_t;

typedef struct {
    int width, height, board, round, rounds, players, me, to_play, first;
    int workers, max_buildings, upkeep, food_price;
    /* Index y * width + x. */
    int content[MAX_SIDE * MAX_SIDE];
    int owner[MAX_SIDE * MAX_SIDE];
    int worker[MAX_SIDE * MAX_SIDE];
    player_t player[MAX_PLAYERS];
    /* Buildings left to build, by kind (supply[k] for kind k + FARM): farms, sawmills,
     * pontoons, quarries; with the powers also cathedrals, castles, watchtowers,
     * markets (0 without them). */
    int supply[8];
} etat_t;

/* Callbacks, defined by the champion. */
void init_game(void);
void jouer(void);
void end_game(void);

/* Your seat, 0 to 3. */
int moi(void);
/* The whole match. */
void etat(etat_t *out);
/* Your legal actions now (empty when it is not your turn): their number; *actions points
 * to as many strings, the kit's until the next call of legal(). */
int legal(char ***actions);
/* The neighbours of (x, y), at most 8: their number, their coordinates in xs and ys. */
int voisins(int x, int y, int xs[8], int ys[8]);
/* Takes the action `text` (as legal() writes it): 0, or -1 without sending it when this
 * jouer already took one or outside jouer. */
int agir(const char *text);
/* collect X,Y (no building activated) and build X,Y KIND ("farm", ...), through agir. */
int collect(int x, int y);
int build(int x, int y, const char *kind);

#endif
