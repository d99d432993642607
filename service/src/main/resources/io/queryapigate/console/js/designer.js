/* (filled by its screens' owner) */
