"""greedy: a Python Amazons champion that keeps its amazons free and hems the other's in.

Scores a position by the queen moves of its amazons minus its opponent's. It tries every
amazon move, keeps the best few, then tries every arrow of those and plays the best move
found (two stages, as a full search of ~2,000 moves with arrows is too slow in Python for
the 1 s a move). Deterministic: ties go to the first move found."""
from api import *

W = TAILLE + 2  # a padded board: a border of arrows around the 10x10, no bound checks
DIRS = (1, -1, W, -W, W + 1, W - 1, -W + 1, -W - 1)
KEEP = 4  # amazon moves kept for the arrow stage


def read_board():
    board = [FLECHE] * (W * W)
    for y in range(TAILLE):
        for x in range(TAILLE):
            board[(y + 1) * W + x + 1] = case(x, y)
    return board


def reach(board, i):
    """Squares a queen on i reaches over empty squares."""
    out = []
    for d in DIRS:
        j = i + d
        while board[j] == VIDE:
            out.append(j)
            j += d
    return out


def mobility(board, who):
    n = 0
    for i, c in enumerate(board):
        if c == who:
            for d in DIRS:
                j = i + d
                while board[j] == VIDE:
                    n += 1
                    j += d
    return n


def score(board):
    return mobility(board, MOI) - mobility(board, ADVERSAIRE)


def xy(i):
    return i % W - 1, i // W - 1


def best_moves(board):
    """Candidate moves (from, to, arrow), best first."""
    steps = []
    for i, c in enumerate(board):
        if c != MOI:
            continue
        board[i] = VIDE
        for j in reach(board, i):
            board[j] = MOI
            steps.append((score(board), len(steps), i, j))
            board[j] = VIDE
        board[i] = MOI
    steps.sort(key=lambda s: (-s[0], s[1]))
    moves = []
    for _, _, i, j in steps[:KEEP]:
        board[i], board[j] = VIDE, MOI
        for k in reach(board, j):
            board[k] = FLECHE
            moves.append((score(board), len(moves), i, j, k))
            board[k] = VIDE
        board[i], board[j] = MOI, VIDE
    moves.sort(key=lambda m: (-m[0], m[1]))
    return [m[2:] for m in moves]


def init_game():
    print("greedy (Python): I play", "white" if couleur() == 0 else "black")


def jouer():
    for i, j, k in best_moves(read_board()):
        if deplacer(*xy(i), *xy(j), *xy(k)) == SUCCES:
            return
    print("greedy (Python): no move accepted at move", numero_coup())


def end_game():
    print("greedy (Python): game over after", numero_coup(), "moves")
