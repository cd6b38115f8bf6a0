//! Rule 21, answered for every cell at once: which empty cells would, as an obstacle, cut
//! every road off from the outside of the map.
//!
//! Build a graph whose nodes are the empty cells plus two virtual nodes: `S` (the outside,
//! joined to every empty border cell) and `T` (the roads, joined to every empty cell that
//! touches a road). Rule 21 holds while `S` reaches `T` (or a border cell is a road). An
//! obstacle on an empty cell `c` breaks it exactly when every `S`-`T` path goes through `c`,
//! that is when `c` is an articulation point separating `S` from `T`. One depth-first search
//! from `S` with low-links (Tarjan) finds them all: walking up the DFS tree from `T`, a vertex
//! `c` with child `w` on that path separates them iff `low[w] >= disc[c]`. The whole set
//! costs one linear pass per board, so `construction_possible` is O(1) afterwards instead of
//! a flood fill per query.

use crate::board::{Board, Kind, Pos, CELLS};

const S: usize = CELLS;
const T: usize = CELLS + 1;
const NODES: usize = CELLS + 2;
const NONE: u32 = u32::MAX;

/// The cached answer of rule 21 for one board.
#[derive(Clone, Debug)]
pub(crate) struct Blocking {
    open: bool,
    blocking: Vec<bool>,
}

impl Blocking {
    pub(crate) fn contains(&self, pos: Pos) -> bool {
        self.blocking[pos.index()]
    }

    pub(crate) fn is_open(&self) -> bool {
        self.open
    }

    pub(crate) fn compute(board: &Board) -> Blocking {
        let cells = board.cells();
        let mut blocking = vec![false; CELLS];
        let border_road =
            (0..CELLS).any(|i| Pos::from_index(i).is_border() && cells[i].kind == Kind::Route);
        if border_road {
            return Blocking {
                open: true,
                blocking,
            };
        }
        let graph = Graph::new(board);
        let (disc, low, parent) = graph.dfs_from_s();
        if disc[T] == NONE {
            // Rule 21 is already broken (only in hand-made setups): nothing can break it more.
            return Blocking {
                open: false,
                blocking,
            };
        }
        let mut w = T;
        let mut c = parent[T] as usize;
        while c != S {
            if low[w] >= disc[c] {
                blocking[c] = true;
            }
            w = c;
            c = parent[c] as usize;
        }
        Blocking {
            open: true,
            blocking,
        }
    }
}

/// The empty cells and the two virtual nodes, as a compressed adjacency list.
struct Graph {
    start: Vec<u32>,
    edges: Vec<u32>,
}

impl Graph {
    fn new(board: &Board) -> Graph {
        let cells = board.cells();
        let empty = |i: usize| cells[i].kind == Kind::Vide;
        let mut s_edges = Vec::new();
        let mut t_edges = Vec::new();
        let mut start = Vec::with_capacity(NODES + 1);
        let mut edges = Vec::with_capacity(CELLS * 4);
        for i in 0..CELLS {
            start.push(edges.len() as u32);
            if !empty(i) {
                continue;
            }
            let pos = Pos::from_index(i);
            let mut near_road = false;
            for n in pos.neighbours4() {
                let j = n.index();
                match cells[j].kind {
                    Kind::Vide => edges.push(j as u32),
                    Kind::Route => near_road = true,
                    _ => {}
                }
            }
            if pos.is_border() {
                edges.push(S as u32);
                s_edges.push(i as u32);
            }
            if near_road {
                edges.push(T as u32);
                t_edges.push(i as u32);
            }
        }
        start.push(edges.len() as u32);
        edges.extend(s_edges);
        start.push(edges.len() as u32);
        edges.extend(t_edges);
        start.push(edges.len() as u32);
        Graph { start, edges }
    }

    fn neighbours(&self, node: usize) -> &[u32] {
        &self.edges[self.start[node] as usize..self.start[node + 1] as usize]
    }

    /// Iterative DFS from `S`: discovery times, low-links and DFS-tree parents.
    fn dfs_from_s(&self) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
        let mut disc = vec![NONE; NODES];
        let mut low = vec![NONE; NODES];
        let mut parent = vec![NONE; NODES];
        let mut next_edge = vec![0u32; NODES];
        let mut stack = vec![S];
        let mut time = 0;
        disc[S] = time;
        low[S] = time;
        while let Some(&v) = stack.last() {
            let neighbours = self.neighbours(v);
            if let Some(&u) = neighbours.get(next_edge[v] as usize) {
                next_edge[v] += 1;
                let u = u as usize;
                if disc[u] == NONE {
                    time += 1;
                    disc[u] = time;
                    low[u] = time;
                    parent[u] = v as u32;
                    stack.push(u);
                } else if u as u32 != parent[v] {
                    low[v] = low[v].min(disc[u]);
                }
            } else {
                stack.pop();
                if let Some(&p) = stack.last() {
                    low[p] = low[p].min(low[v]);
                }
            }
        }
        (disc, low, parent)
    }
}
