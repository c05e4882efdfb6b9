// games/index.js — which board module draws which game. A game without an
// entry gets the generic board (rendered text, legal move list, text box).
// Adding a board: write games/<name>.js exporting createBoard, add a line.

const boards = {
  tictacdoh: () => import('./tictacdoh.js'),
};

export async function loadBoard(name) {
  const load = boards[name] || (() => import('./generic.js'));
  return load();
}
