/** What every figure gets from the bench runner: how many runs, whether --quick, where progress goes. */
export interface FigureContext {
  runs: number;
  quick: boolean;
  /** One line of progress within the current figure. */
  progress: (line: string) => void;
}
