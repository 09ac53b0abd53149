print('CODE')
