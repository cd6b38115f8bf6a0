//! The rules of "La loi du plus riche".
