//! One API call as data: a function of the API and its integer arguments, as text
//! (`construire_route 50 51`) and applied to any [`Api`]. The protocol, match records and
//! replays all speak it.

use crate::api::{Api, ApiError};
use std::fmt;
use std::str::FromStr;

macro_rules! functions {
    ($($variant:ident $name:literal $arity:literal,)*) => {
        /// A function of the API (docs/rules.md section 6).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Function { $($variant,)* }

        impl Function {
            /// Every function, in the order of the 2009 subject.
            pub const ALL: &'static [Function] = &[$(Function::$variant,)*];

            /// The name, exactly as the API spells it.
            pub fn name(self) -> &'static str {
                match self { $(Function::$variant => $name,)* }
            }

            /// The number of integer arguments.
            pub fn arity(self) -> usize {
                match self { $(Function::$variant => $arity,)* }
            }
        }
    };
}

functions! {
    TypeCase "type_case" 2,
    ValeurCase "valeur_case" 2,
    Appartenance "appartenance" 2,
    TypeMonument "type_monument" 2,
    PorteeMonument "portee_monument" 1,
    PrestigeMonument "prestige_monument" 1,
    NumeroTour "numero_tour" 0,
    Commence "commence" 0,
    MontantEncheres "montant_encheres" 1,
    VainqueurEncheres "vainqueur_encheres" 0,
    Score "score" 1,
    Finances "finances" 1,
    MonumentEnCours "monument_en_cours" 0,
    Distance "distance" 4,
    RoutePossible "route_possible" 2,
    ConstructionPossible "construction_possible" 2,
    CoutAchatMaison "cout_achat_maison" 0,
    CoutAchatRoute "cout_achat_route" 0,
    MonTour "mon_tour" 0,
    ConstruireRoute "construire_route" 2,
    ConstruireMaison "construire_maison" 2,
    ReserverCase "reserver_case" 2,
    DetruireMaison "detruire_maison" 2,
    VendreMaison "vendre_maison" 2,
    Encherir "encherir" 1,
    ConstruireMonument "construire_monument" 2,
}

impl Function {
    /// The function named `name`.
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// Whether the function may change the game (docs/rules.md section 6.4, the 2009
    /// "fonctions d'action").
    pub fn is_action(self) -> bool {
        matches!(
            self,
            Function::ConstruireRoute
                | Function::ConstruireMaison
                | Function::ReserverCase
                | Function::DetruireMaison
                | Function::VendreMaison
                | Function::Encherir
                | Function::ConstruireMonument
        )
    }

    /// The errors this function can be refused with, as its checks in `api.rs` make them
    /// (docs/rules.md section 6.4): none for a question, which is answered, never refused.
    /// A record's counted refusals name only these (`encherir` is never `HORS_TERRAIN`).
    pub fn refusals(self) -> &'static [ApiError] {
        use ApiError::*;
        match self {
            Function::ConstruireRoute => &[
                ActionInterdite,
                HorsTerrain,
                CaseOccupee,
                NonConnexe,
                FinancesDepassees,
            ],
            Function::ConstruireMaison | Function::ReserverCase => &[
                ActionInterdite,
                HorsTerrain,
                CaseOccupee,
                Blocage,
                NonConnexe,
                FinancesDepassees,
            ],
            Function::DetruireMaison => {
                &[HorsTerrain, ActionInterdite, PasDeMaison, FinancesDepassees]
            }
            Function::VendreMaison => &[HorsTerrain, ActionInterdite, PasDeMaison],
            Function::Encherir => &[ActionInterdite, FinancesDepassees],
            Function::ConstruireMonument => &[
                HorsTerrain,
                ActionInterdite,
                CaseOccupee,
                Blocage,
                NonConnexe,
            ],
            _ => &[],
        }
    }
}

/// A call: a function and exactly `function.arity()` arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    /// The function called; its arity bounds `args`.
    pub function: Function,
    args: [i32; 4],
}

/// Why a line is not a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallParseError {
    /// The first word is not a function of the API.
    UnknownFunction(String),
    /// The function takes another number of arguments.
    WrongArity { function: Function, given: usize },
    /// An argument is not a 32-bit decimal integer.
    NotAnInteger(String),
}

impl fmt::Display for CallParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallParseError::UnknownFunction(name) => {
                write!(f, "`{name}` is not a function of the API")
            }
            CallParseError::WrongArity { function, given } => write!(
                f,
                "`{}` takes {} integer argument(s), {given} given",
                function.name(),
                function.arity()
            ),
            CallParseError::NotAnInteger(word) => write!(f, "`{word}` is not a 32-bit integer"),
        }
    }
}

impl std::error::Error for CallParseError {}

impl Call {
    /// A call of `function` with `args`, if the count is right.
    pub fn new(function: Function, args: &[i32]) -> Result<Call, CallParseError> {
        if args.len() != function.arity() {
            return Err(CallParseError::WrongArity {
                function,
                given: args.len(),
            });
        }
        let mut all = [0; 4];
        all[..args.len()].copy_from_slice(args);
        Ok(Call {
            function,
            args: all,
        })
    }

    /// The arguments.
    pub fn args(&self) -> &[i32] {
        &self.args[..self.function.arity()]
    }

    /// Make the call on `api` and return its result.
    pub fn apply(&self, api: &mut impl Api) -> i32 {
        let [a, b, c, d] = self.args;
        match self.function {
            Function::TypeCase => api.type_case(a, b),
            Function::ValeurCase => api.valeur_case(a, b),
            Function::Appartenance => api.appartenance(a, b),
            Function::TypeMonument => api.type_monument(a, b),
            Function::PorteeMonument => api.portee_monument(a),
            Function::PrestigeMonument => api.prestige_monument(a),
            Function::NumeroTour => api.numero_tour(),
            Function::Commence => api.commence(),
            Function::MontantEncheres => api.montant_encheres(a),
            Function::VainqueurEncheres => api.vainqueur_encheres(),
            Function::Score => api.score(a),
            Function::Finances => api.finances(a),
            Function::MonumentEnCours => api.monument_en_cours(),
            Function::Distance => api.distance(a, b, c, d),
            Function::RoutePossible => api.route_possible(a, b),
            Function::ConstructionPossible => api.construction_possible(a, b),
            Function::CoutAchatMaison => api.cout_achat_maison(),
            Function::CoutAchatRoute => api.cout_achat_route(),
            Function::MonTour => api.mon_tour(),
            Function::ConstruireRoute => api.construire_route(a, b),
            Function::ConstruireMaison => api.construire_maison(a, b),
            Function::ReserverCase => api.reserver_case(a, b),
            Function::DetruireMaison => api.detruire_maison(a, b),
            Function::VendreMaison => api.vendre_maison(a, b),
            Function::Encherir => api.encherir(a),
            Function::ConstruireMonument => api.construire_monument(a, b),
        }
    }
}

impl FromStr for Call {
    type Err = CallParseError;

    /// Parse `name arg arg ...` as protocol.md section 1 says: fields split on ASCII
    /// whitespace, decimal 32-bit arguments with an optional sign.
    ///
    /// ```
    /// use engine::call::{Call, Function};
    /// let call: Call = "construire_route 50 51".parse().unwrap();
    /// assert_eq!(call.function, Function::ConstruireRoute);
    /// assert_eq!(call.args(), &[50, 51]);
    /// assert_eq!(call.to_string(), "construire_route 50 51");
    /// assert!("construire_route 50".parse::<Call>().is_err());
    /// ```
    fn from_str(line: &str) -> Result<Call, CallParseError> {
        let mut words = line.split_ascii_whitespace();
        let name = words.next().unwrap_or("");
        let function = Function::from_name(name)
            .ok_or_else(|| CallParseError::UnknownFunction(name.to_string()))?;
        let words: Vec<&str> = words.collect();
        if words.len() != function.arity() {
            return Err(CallParseError::WrongArity {
                function,
                given: words.len(),
            });
        }
        let mut args = [0; 4];
        for (arg, word) in args.iter_mut().zip(&words) {
            *arg = word
                .parse()
                .map_err(|_| CallParseError::NotAnInteger(word.to_string()))?;
        }
        Ok(Call { function, args })
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.function.name())?;
        for arg in self.args() {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}
