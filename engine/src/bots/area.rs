//! What the bots read of the board, through the [`Api`] only: the built area (every
//! building stands next to a road and roads are never removed, so the built area is the
//! road network's bounding box plus one) and a local copy of the cells in it.
//!
//! Over the protocol `type_case`, `appartenance` and `valeur_case` are answered by the
//! kit's cache, so reading the area costs one `etat`; only `route_possible` and
//! `construction_possible` go to the referee, and the bots ask them only about the few
//! cells that pass the local pre-checks ([`Local::road_candidates`],
//! [`Local::building_candidates`]).

use crate::api::Api;
use crate::constants::*;

/// A rectangle of cells, bounds included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Area {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Area {
    fn grown(self, by: i32) -> Area {
        let clip = |v: i32| v.clamp(0, TAILLE_CARTE - 1);
        Area {
            x0: clip(self.x0 - by),
            y0: clip(self.y0 - by),
            x1: clip(self.x1 + by),
            y1: clip(self.y1 + by),
        }
    }

    fn width(self) -> i32 {
        self.x1 - self.x0 + 1
    }

    fn contains(self, x: i32, y: i32) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// The cells, row after row.
    pub fn cells(self) -> impl Iterator<Item = (i32, i32)> {
        (self.y0..=self.y1).flat_map(move |y| (self.x0..=self.x1).map(move |x| (x, y)))
    }
}

/// The bounding box of the roads: a walk over the road network from the centre road
/// (rule 1), or a scan of the whole map when the board does not start that way.
fn roads_box(api: &mut dyn Api) -> Option<Area> {
    const C: i32 = TAILLE_CARTE / 2;
    let size = TAILLE_CARTE as usize;
    let mut area: Option<Area> = None;
    let mut add = |x: i32, y: i32| {
        area = Some(match area {
            None => Area {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            },
            Some(a) => Area {
                x0: a.x0.min(x),
                y0: a.y0.min(y),
                x1: a.x1.max(x),
                y1: a.y1.max(y),
            },
        })
    };
    if api.type_case(C, C) == ROUTE {
        let mut seen = vec![false; size * size];
        let mut stack = vec![(C, C)];
        seen[C as usize * size + C as usize] = true;
        while let Some((x, y)) = stack.pop() {
            add(x, y);
            for (nx, ny) in [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)] {
                if api.type_case(nx, ny) == ROUTE && !seen[ny as usize * size + nx as usize] {
                    seen[ny as usize * size + nx as usize] = true;
                    stack.push((nx, ny));
                }
            }
        }
    } else {
        for y in 0..TAILLE_CARTE {
            for x in 0..TAILLE_CARTE {
                if api.type_case(x, y) == ROUTE {
                    add(x, y);
                }
            }
        }
    }
    area
}

/// A copy of the cells of the built area and `margin` more cells around it.
pub(crate) struct Local {
    pub area: Area,
    kinds: Vec<i32>,
    owners: Vec<i32>,
    values: Vec<i32>,
}

impl Local {
    /// Read the built area plus `margin` from `api`.
    pub fn read(api: &mut dyn Api, margin: i32) -> Local {
        let area = match roads_box(api) {
            Some(roads) => roads.grown(1 + margin),
            None => Area {
                x0: 0,
                y0: 0,
                x1: -1,
                y1: -1,
            },
        };
        let (mut kinds, mut owners, mut values) = (Vec::new(), Vec::new(), Vec::new());
        for (x, y) in area.cells() {
            kinds.push(api.type_case(x, y));
            owners.push(api.appartenance(x, y));
            values.push(api.valeur_case(x, y));
        }
        Local {
            area,
            kinds,
            owners,
            values,
        }
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        self.area
            .contains(x, y)
            .then(|| ((y - self.area.y0) * self.area.width() + x - self.area.x0) as usize)
    }

    /// `type_case`; cells off the area are empty (off the map: `HORS_TERRAIN`).
    pub fn kind(&self, x: i32, y: i32) -> i32 {
        match self.index(x, y) {
            Some(i) => self.kinds[i],
            None if (0..TAILLE_CARTE).contains(&x) && (0..TAILLE_CARTE).contains(&y) => VIDE,
            None => HORS_TERRAIN,
        }
    }

    /// `appartenance`; `MAIRIE` off the area.
    pub fn owner(&self, x: i32, y: i32) -> i32 {
        self.index(x, y).map_or(MAIRIE, |i| self.owners[i])
    }

    /// `valeur_case`; 0 off the area (only cells near buildings matter to the bots).
    pub fn value(&self, x: i32, y: i32) -> i32 {
        self.index(x, y).map_or(0, |i| self.values[i])
    }

    /// Whether we may build on the cell (rule 19).
    pub fn is_buildable(&self, x: i32, y: i32) -> bool {
        let kind = self.kind(x, y);
        kind == VIDE || (kind == RESERVATION && self.owner(x, y) == 0)
    }

    /// Whether a road is among the 4-neighbours, or the 8 with `diagonals`.
    pub fn touches_road(&self, x: i32, y: i32, diagonals: bool) -> bool {
        (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| (dx, dy) != (0, 0) && (diagonals || dx == 0 || dy == 0))
            .any(|(dx, dy)| self.kind(x + dx, y + dy) == ROUTE)
    }

    /// Cells where `route_possible` may succeed: buildable, with a road among the
    /// 4-neighbours (it then does succeed: roads never block).
    pub fn road_candidates(&self) -> Vec<(i32, i32)> {
        self.area
            .cells()
            .filter(|&(x, y)| self.is_buildable(x, y) && self.touches_road(x, y, false))
            .collect()
    }

    /// Cells where `construction_possible` may succeed: buildable, with a road among the
    /// 8-neighbours (rule 21 still needs asking).
    pub fn building_candidates(&self) -> Vec<(i32, i32)> {
        self.area
            .cells()
            .filter(|&(x, y)| self.is_buildable(x, y) && self.touches_road(x, y, true))
            .collect()
    }

    /// Cells where `construction_possible` succeeds: the building candidates, asked in
    /// row order (where a house, a reservation or the monument may go).
    pub fn construction_sites(&self, api: &mut dyn Api) -> Vec<(i32, i32)> {
        self.building_candidates()
            .into_iter()
            .filter(|&(x, y)| api.construction_possible(x, y) == SUCCES)
            .collect()
    }

    /// The houses in the area, with their owner (relative; `MAIRIE` for sold ones).
    pub fn houses(&self) -> Vec<(i32, i32, i32)> {
        self.area
            .cells()
            .filter(|&(x, y)| self.kind(x, y) == MAISON)
            .map(|(x, y)| (x, y, self.owner(x, y)))
            .collect()
    }
}
