/** Text fit for a markdown table's cell: a pipe would end the cell and a newline the row. */
export const markdownCell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
